// Package layers holds no code: its test holds the module's packages to
// the layout CONTRIBUTING.md draws, in which data flows one way. The engine
// knows nothing of the SMS product or of any transport; the SMS product
// knows no transport; and no package outside the command line imports it.
package layers
