// Package access decides which calling apps may run which capabilities on
// the phone. The tool service is exported, because discovery requires it, so
// any installed app can send it a request; without a check, any app could
// make it send SMS from the user's SIM (a confused deputy).
//
// The rules: read-only capabilities are open to every caller. A capability
// that changes something needs a caller that Android identifies (binding
// mode's Binder uid, not the creator of an Intent's callback PendingIntent,
// which any app holding it can claim: WithClaimedCaller), the user's
// consent for that calling package, and is rate limited per caller. A request without a callback (adb, or an
// app that hides who it is) is accepted only when the app allows it, which
// it does in debuggable builds or with a developer switch.
package access

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Decision is what the user decided for a calling app.
type Decision string

// The two decisions. An app without one has not been asked yet.
const (
	Allowed Decision = "allowed"
	Denied  Decision = "denied"
)

// Grant is the user's decision for one calling package.
type Grant struct {
	Package  string    `json:"package"`
	Decision Decision  `json:"decision"`
	At       time.Time `json:"at"`
}

// ConsentFile is the consent store's file name inside a data directory.
const ConsentFile = "consents.json"

// Consents keeps the user's decisions. They survive restarts: every change
// is written to the file (atomically, through a temporary file and a rename)
// before the method returns. It is safe for concurrent use.
type Consents struct {
	path string
	now  func() time.Time

	mu     sync.Mutex
	grants map[string]Grant
}

// OpenConsents loads the decisions in path, which may not exist yet. An
// empty path keeps them in memory only. now is the time source; nil means
// time.Now.
func OpenConsents(path string, now func() time.Time) (*Consents, error) {
	if now == nil {
		now = time.Now
	}
	c := &Consents{path: path, now: now, grants: map[string]Grant{}}
	if path == "" {
		return c, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	var grants []Grant
	if err := json.Unmarshal(data, &grants); err != nil {
		return nil, fmt.Errorf("consent store %s: %w", path, err)
	}
	for _, g := range grants {
		c.grants[g.Package] = g
	}
	return c, nil
}

// Decision returns the user's decision for pkg, if there is one.
func (c *Consents) Decision(pkg string) (Decision, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.grants[pkg]
	return g.Decision, ok
}

// Decide records the user's decision for pkg.
func (c *Consents) Decide(pkg string, d Decision) error {
	if err := checkPackage(pkg); err != nil {
		return err
	}
	if d != Allowed && d != Denied {
		return fmt.Errorf("decision %q: want %q or %q", d, Allowed, Denied)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	before, had := c.grants[pkg]
	c.grants[pkg] = Grant{Package: pkg, Decision: d, At: c.now().UTC()}
	if err := c.saveLocked(); err != nil {
		// Keep memory and file in agreement: the decision did not happen.
		if had {
			c.grants[pkg] = before
		} else {
			delete(c.grants, pkg)
		}
		return err
	}
	return nil
}

// Forget removes the decision for pkg (the user revoked it): the app will be
// asked again on its next call.
func (c *Consents) Forget(pkg string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	before, had := c.grants[pkg]
	if !had {
		return nil
	}
	delete(c.grants, pkg)
	if err := c.saveLocked(); err != nil {
		c.grants[pkg] = before
		return err
	}
	return nil
}

// List returns every decision, sorted by package.
func (c *Consents) List() []Grant {
	c.mu.Lock()
	defer c.mu.Unlock()
	list := make([]Grant, 0, len(c.grants))
	for _, g := range c.grants {
		list = append(list, g)
	}
	slices.SortFunc(list, func(a, b Grant) int { return strings.Compare(a.Package, b.Package) })
	return list
}

func (c *Consents) saveLocked() error {
	if c.path == "" {
		return nil
	}
	list := make([]Grant, 0, len(c.grants))
	for _, g := range c.grants {
		list = append(list, g)
	}
	slices.SortFunc(list, func(a, b Grant) int { return strings.Compare(a.Package, b.Package) })
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".consents-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(data, '\n'))
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving consents: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving consents: %w", err)
	}
	return nil
}

// checkPackage rejects what cannot be an Android package name, so that a
// decision is never recorded for garbage.
func checkPackage(pkg string) error {
	if pkg == "" || len(pkg) > 255 || strings.ContainsAny(pkg, " /\\\x00\n") {
		return fmt.Errorf("%q is not an Android package name", pkg)
	}
	return nil
}
