package intentbridge

import (
	"fmt"
	"log"
	"strconv"
	"strings"
)

// logcat is the bridge's logger unless SetLogger gives another: it writes
// through the log package, whose output gomobile sends to logcat, one line
// a message, as slog's default logger writes it ("ERROR message
// key=value ..."). It is not slog, which would add a tenth of a megabyte
// to the engine every tool app ships.
type logcat struct{}

func (logcat) Error(msg string, args ...any) { logLine("ERROR", msg, args) }
func (logcat) Warn(msg string, args ...any)  { logLine("WARN", msg, args) }

// logLine logs msg at level with args, key-value pairs, as slog's text
// handler writes them: key=value, the value quoted when it is empty or
// holds a space, a quote, an equals sign or a character that does not
// print.
func logLine(level, msg string, args []any) {
	var b strings.Builder
	b.WriteString(level)
	b.WriteByte(' ')
	b.WriteString(msg)
	for i := 0; i < len(args); i += 2 {
		key, value := fmt.Sprint(args[i]), "!MISSING"
		if i+1 < len(args) {
			value = fmt.Sprint(args[i+1])
		}
		b.WriteByte(' ')
		b.WriteString(key)
		b.WriteByte('=')
		if value == "" || strings.ContainsFunc(value, func(r rune) bool { return r == ' ' || r == '"' || r == '=' || !strconv.IsPrint(r) }) {
			value = strconv.Quote(value)
		}
		b.WriteString(value)
	}
	log.Print(b.String())
}
