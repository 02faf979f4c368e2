// Package workflows holds no code: its tests read the hosted pipeline's
// workflows (.github/workflows) and hold them to the rules a release depends
// on, so that a change that breaks one fails make test here, before a tag.
package workflows
