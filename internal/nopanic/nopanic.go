// Package nopanic keeps Go panics from crossing into Java: a panic that
// crosses gomobile's bindings kills the app.
package nopanic

import "fmt"

// Into turns a panic into *err, naming where it happened: deferred at the
// top of every method the bound packages give Java that returns an error.
//
//	defer nopanic.Into(&err, "intentbridge: Start")
func Into(err *error, where string) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s failed with an internal error: %v", where, p)
	}
}
