package descriptor

import (
	"cmp"
	"fmt"
	"sort"
)

// Severity says whether a finding breaks the contract (Error) or only
// weakens it (Warning).
type Severity int

// The severities, in increasing order.
const (
	Warning Severity = iota + 1
	Error
)

func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// MarshalText writes the severity as "warning" or "error".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Finding is one problem Lint found.
type Finding struct {
	// File is the linted file's name, as Lint was given it.
	File   string `json:"file"`
	Line   int    `json:"line"`             // 1-based; 0 when the finding is about a whole directory
	Column int    `json:"column,omitempty"` // 1-based, in bytes; 0 when unknown
	// Severity is the rule's: Error or Warning.
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`    // a stable id from Rules
	Message  string   `json:"message"` // what is wrong and how to fix it
}

// String formats f as "file:line: severity: message [rule]", the form
// editors and CI logs link to.
func (f Finding) String() string {
	where := f.File
	if f.Line > 0 {
		where = fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return fmt.Sprintf("%s: %s: %s [%s]", where, f.Severity, f.Message, f.Rule)
}

// SortFindings orders findings by place (file, line, column), keeping the
// order of those at the same place, so that output is stable. (It is
// sort.SliceStable rather than slices.SortStableFunc, whose code would be
// compiled once more for Finding, in the engine every tool app ships.)
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column)) < 0
	})
}

// At returns a finding of rule r at line and column, with the message
// format and args give, as fmt.Sprintf writes them. Its File is left for
// the caller to set.
func (r Rule) At(line, column int, format string, args ...any) Finding {
	return Finding{Line: line, Column: column, Severity: r.Severity, Rule: r.ID, Message: fmt.Sprintf(format, args...)}
}
