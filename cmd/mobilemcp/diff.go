package main

import (
	"bytes"
	"fmt"
	"strings"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// maxDiffCells bounds the line-comparison table of unifiedDiff. Past it,
// the differing middle is shown as wholly replaced: still a correct diff,
// only not the smallest.
const maxDiffCells = 4 << 20

// edit is one line of an edit script: ' ' kept, '-' removed, '+' added.
type edit struct {
	op   byte
	line string // with its line end, if it has one
}

// unifiedDiff returns the unified diff that turns a (named aName) into b
// (named bName), or "" when they are equal.
func unifiedDiff(aName, bName string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	edits := lineEdits(splitLines(a), splitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	aLine, bLine := 1, 1 // the line numbers at edits[i]
	for i := 0; i < len(edits); {
		if edits[i].op == ' ' {
			aLine, bLine, i = aLine+1, bLine+1, i+1
			continue
		}
		// A hunk runs from diffContext lines before this change to
		// diffContext lines after the last change that is close enough to
		// share it: one whose context would touch this hunk's.
		start := max(0, i-diffContext)
		end := i
		for j := i; j < len(edits) && j <= end+2*diffContext+1; j++ {
			if edits[j].op != ' ' {
				end = j
			}
		}
		end = min(len(edits), end+diffContext+1)
		aStart, bStart := aLine-(i-start), bLine-(i-start)
		var body strings.Builder
		aCount, bCount := 0, 0
		for _, e := range edits[start:end] {
			body.WriteByte(e.op)
			body.WriteString(e.line)
			if !strings.HasSuffix(e.line, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
			if e.op != '+' {
				aCount++
			}
			if e.op != '-' {
				bCount++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n%s", hunkRange(aStart, aCount), hunkRange(bStart, bCount), body.String())
		aLine, bLine, i = aStart+aCount, bStart+bCount, end
	}
	return out.String()
}

// hunkRange writes a hunk's start and length; an empty range starts at the
// line before it, as diff and patch expect.
func hunkRange(start, n int) string {
	if n == 0 {
		start--
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// splitLines splits text after each newline. The last line has no
// newline when the text does not end with one.
func splitLines(text []byte) []string {
	lines := strings.SplitAfter(string(text), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineEdits returns an edit script from a to b: the common head and tail
// are kept, and the middle is compared line by line (longest common
// subsequence) when it is small enough.
func lineEdits(a, b []string) []edit {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var edits []edit
	for _, l := range a[:head] {
		edits = append(edits, edit{' ', l})
	}
	edits = append(edits, middleEdits(a[head:len(a)-tail], b[head:len(b)-tail])...)
	for _, l := range a[len(a)-tail:] {
		edits = append(edits, edit{' ', l})
	}
	return edits
}

func middleEdits(a, b []string) []edit {
	var edits []edit
	if (len(a)+1)*(len(b)+1) > maxDiffCells {
		for _, l := range a {
			edits = append(edits, edit{'-', l})
		}
		for _, l := range b {
			edits = append(edits, edit{'+', l})
		}
		return edits
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			edits = append(edits, edit{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			edits = append(edits, edit{'-', a[i]}) // removals first, as diff shows them
			i++
		default:
			edits = append(edits, edit{'+', b[j]})
			j++
		}
	}
	return edits
}
