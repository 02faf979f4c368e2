package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// phoneFlags are the flags of every command that uses the simulated phone.
type phoneFlags struct {
	simConfig string
	dataDir   string
}

// register adds --sim-config and --data-dir.
func (p *phoneFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.simConfig, "sim-config", "", "JSON `file` describing the simulated SIMs and faults (default: the two default SIMs, 14 and 17)")
	p.registerDataDir(fs)
}

// registerDataDir adds --data-dir only, for commands that just read the outbox.
func (p *phoneFlags) registerDataDir(fs *flag.FlagSet) {
	fs.StringVar(&p.dataDir, "data-dir", "", "`directory` for the outbox (default: $MOBILEMCP_DATA_DIR, else $XDG_DATA_HOME/mobilemcp, else ~/.local/share/mobilemcp)")
}

// checkSIMConfig returns a usage error when --sim-config names a file that
// does not exist.
func (p *phoneFlags) checkSIMConfig(e *env, fs *flag.FlagSet) (code int, ok bool) {
	if p.simConfig == "" {
		return exitOK, true
	}
	return checkExists(e, fs, "--sim-config", p.simConfig)
}

// resolveDataDir applies the host convention: --data-dir, then
// $MOBILEMCP_DATA_DIR, then $XDG_DATA_HOME/mobilemcp, then
// ~/.local/share/mobilemcp. It never picks the current directory.
func (p *phoneFlags) resolveDataDir(e *env) (string, error) {
	if p.dataDir != "" {
		return p.dataDir, nil
	}
	if dir := e.getenv("MOBILEMCP_DATA_DIR"); dir != "" {
		return dir, nil
	}
	if xdg := e.getenv("XDG_DATA_HOME"); xdg != "" {
		return filepath.Join(xdg, "mobilemcp"), nil
	}
	home := e.getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", errors.New("no data directory: set --data-dir or $MOBILEMCP_DATA_DIR")
		}
	}
	return filepath.Join(home, ".local", "share", "mobilemcp"), nil
}

func (p *phoneFlags) outboxPath(e *env) (string, error) {
	dir, err := p.resolveDataDir(e)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, simphone.OutboxFile), nil
}

// engine builds the capability engine over the simulated phone, with the
// reply store in the data directory so that a repeated request id is
// answered from it. What the store skips in its file is logged to log.
// The caller closes the returned store.
func (p *phoneFlags) engine(e *env, log *slog.Logger) (*capability.Engine, *replystore.Store, error) {
	cfg := simphone.DefaultConfig()
	if p.simConfig != "" {
		var err error
		if cfg, err = simphone.LoadConfig(p.simConfig); err != nil {
			return nil, nil, err
		}
	}
	dir, err := p.resolveDataDir(e)
	if err != nil {
		return nil, nil, err
	}
	phone, err := simphone.New(cfg, simphone.Options{OutboxPath: filepath.Join(dir, simphone.OutboxFile)})
	if err != nil {
		return nil, nil, err
	}
	reg, err := capability.NewRegistry(sms.Capabilities(phone)...)
	if err != nil {
		return nil, nil, err
	}
	store, err := replystore.Open(replystore.Options{Path: filepath.Join(dir, replystore.FileName), Logger: log})
	if err != nil {
		return nil, nil, fmt.Errorf("opening the reply store: %w", err)
	}
	return capability.NewEngine(reg, capability.Options{Replies: store, Logger: log}), store, nil
}

// builtinTool names the tool the CLI serves on the simulated phone, as its
// manifest's meta-data does: the MCP server's title, and the strings 'gen'
// writes. Its capabilities are builtinRegistry's.
var builtinTool = struct{ name, description string }{sms.ToolName, sms.ToolDescription}

// builtinRegistry is the registry without a phone, for listing and
// generating descriptors.
func builtinRegistry() *capability.Registry {
	reg, err := capability.NewRegistry(sms.Capabilities(nil)...)
	if err != nil {
		panic(err) // the built-in set is fixed; a test covers it
	}
	return reg
}

// warnings is the logger of a command that prints its result on stdout:
// warnings and errors, on stderr, without the time.
func warnings(e *env) *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{
		Level: slog.LevelWarn,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}
