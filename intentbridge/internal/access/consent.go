// Package access decides which calling apps may run which capabilities on
// the phone: a [Policy] is the engine's admission step (capability.Admission),
// over the user's recorded decisions ([Consents]) and a rate limit per
// caller.
//
//	consents, err := access.OpenConsents(filepath.Join(dataDir, access.ConsentFile), nil)
//	// ...
//	policy := access.NewPolicy(consents, ratelimit.Rate{Calls: 10, Per: time.Minute})
//	reply := engine.Do(ctx, capability.NewCall(request, caller, policy.Admit))
//
// The rules: read-only capabilities are open to every caller. A capability
// that changes something needs a caller that Android identifies (binding
// mode's Binder uid, not the creator of an Intent's callback PendingIntent,
// which any app holding it can claim: capability.Caller.Vouched), the user's
// consent for that calling package, and is rate limited per caller. A
// request without a callback (adb, or an app that hides who it is) is
// accepted only when the app allows it, which it does in debuggable builds
// or with a developer switch.
//
// The tool service is exported, because discovery requires it, so any
// installed app can send it a request; without these checks, any app could
// make it send SMS from the user's SIM (a confused deputy).
//
// It is the Android bridge's own (intentbridge), and not a Go API: the
// rules are the phone's, on the callers Android names.
package access

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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

// Grant is the user's decision for one calling app: a package, and the
// certificate it was signed with when the user decided.
type Grant struct {
	// Package is the calling app's package name.
	Package string `json:"package"`
	// Signer is the hex SHA-256 of the package's signing certificate, as
	// the SignerOf in use gave it; "" without one.
	Signer string `json:"signer,omitempty"`
	// Decision is what the user decided.
	Decision Decision `json:"decision"`
	// At is when the user decided.
	At time.Time `json:"at"`
}

// SignerOf returns the hex SHA-256 of the signing certificate of the
// installed package pkg (several, comma-separated, for an app signed by
// several), or an error when no such package is installed. On a phone the
// app's Java side answers it from the PackageManager.
type SignerOf func(pkg string) (string, error)

// ConsentFile is the consent store's file name inside a data directory.
const ConsentFile = "consents.json"

// Consents keeps the user's decisions. They survive restarts: every change
// is written to the file (atomically, through a temporary file and a rename)
// before the method returns. It is safe for concurrent use.
type Consents struct {
	path     string
	now      func() time.Time
	signerOf SignerOf // nil: decisions are by package name alone

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
		// A decision that Decide would not record is no decision: a
		// "maybe" must never read as a yes.
		err := checkPackage(g.Package)
		if err == nil {
			err = checkDecision(g.Decision)
		}
		if _, twice := c.grants[g.Package]; err == nil && twice {
			err = errors.New("a second decision about " + g.Package)
		}
		if err != nil {
			return nil, fmt.Errorf("consent store %s: %w", path, err)
		}
		c.grants[g.Package] = g
	}
	return c, nil
}

// SetSigners makes each decision belong to an app, not a name: Decide
// records the package's signer with it, and Decision drops a decision whose
// package is no longer installed or is now signed by another certificate
// (another app that took the name), so the user is asked again.
func (c *Consents) SetSigners(signerOf SignerOf) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.signerOf = signerOf
}

// Decision returns the user's decision for pkg, if there is one that is
// still the app's (see SetSigners).
func (c *Consents) Decision(pkg string) (Decision, bool) {
	c.mu.Lock()
	g, ok := c.grants[pkg]
	signerOf := c.signerOf
	c.mu.Unlock()
	if !ok || signerOf == nil {
		return g.Decision, ok
	}
	// Asked outside the lock: on a phone it is a call into Java.
	if signer, err := signerOf(pkg); err != nil || signer != g.Signer {
		c.forgetGrant(g)
		return "", false
	}
	return g.Decision, true
}

// forgetGrant drops g if it is still the decision for its package. A
// failure to save is left for the next decision: in memory it is gone.
func (c *Consents) forgetGrant(g Grant) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.grants[g.Package] == g {
		delete(c.grants, g.Package)
		c.saveLocked()
	}
}

// Decide records the user's decision for pkg, with its signer when
// SetSigners gave a way to learn it.
func (c *Consents) Decide(pkg string, d Decision) error {
	if err := checkPackage(pkg); err != nil {
		return err
	}
	if err := checkDecision(d); err != nil {
		return err
	}
	c.mu.Lock()
	signerOf := c.signerOf
	c.mu.Unlock()
	signer := ""
	if signerOf != nil {
		var err error
		if signer, err = signerOf(pkg); err != nil {
			return fmt.Errorf("cannot tell which app %s is: %w", pkg, err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	before, had := c.grants[pkg]
	c.grants[pkg] = Grant{Package: pkg, Signer: signer, Decision: d, At: c.now().UTC()}
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
	sortByPackage(list)
	return list
}

// sortByPackage sorts grants by package. It is sort.Slice rather than
// slices.SortFunc, whose code would be compiled once more for Grant, in
// the engine every tool app ships; sort's is shared.
func sortByPackage(grants []Grant) {
	sort.Slice(grants, func(i, j int) bool { return grants[i].Package < grants[j].Package })
}

func (c *Consents) saveLocked() error {
	if c.path == "" {
		return nil
	}
	list := make([]Grant, 0, len(c.grants))
	for _, g := range c.grants {
		list = append(list, g)
	}
	sortByPackage(list)
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

func checkDecision(d Decision) error {
	if d != Allowed && d != Denied {
		return fmt.Errorf("decision %q: want %q or %q", d, Allowed, Denied)
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
