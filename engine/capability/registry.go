package capability

import "fmt"

// Registry holds a tool's capabilities in registration order, which is the
// order descriptors and tool lists show them in. A Registry is not safe for
// concurrent Register calls; register everything before serving.
type Registry struct {
	byID  map[string]*Capability
	order []*Capability
}

// NewRegistry returns a registry holding caps, or the first registration error.
func NewRegistry(caps ...Capability) (*Registry, error) {
	r := &Registry{byID: make(map[string]*Capability, len(caps))}
	for _, c := range caps {
		if err := r.Register(c); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds c. It rejects an invalid definition and a duplicate id.
func (r *Registry) Register(c Capability) error {
	if err := c.check(); err != nil {
		return err
	}
	if _, dup := r.byID[c.ID]; dup {
		return fmt.Errorf("capability id %q is already registered", c.ID)
	}
	stored := c
	r.byID[c.ID] = &stored
	r.order = append(r.order, &stored)
	return nil
}

// Lookup returns the capability with the given id.
func (r *Registry) Lookup(id string) (*Capability, bool) {
	c, ok := r.byID[id]
	return c, ok
}

// All returns the capabilities in registration order. Callers must not
// modify them.
func (r *Registry) All() []*Capability { return r.order }

// IDs returns the capability ids in registration order.
func (r *Registry) IDs() []string {
	ids := make([]string, len(r.order))
	for i, c := range r.order {
		ids[i] = c.ID
	}
	return ids
}
