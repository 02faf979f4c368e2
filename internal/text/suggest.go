// Closest and DidYouMean find the name that a misspelt one was probably meant to
// be, for the "did you mean" of lint findings and of the command line.

package text

import "strings"

// Closest returns the candidate closest to got, ignoring case, when it is
// close enough to be a typo of it: fewer edits than a third of got's
// length, plus one. Otherwise it returns "".
func Closest(got string, candidates []string) string {
	best, bestDist := "", len(got)/3+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(got), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// DidYouMean returns "did you mean X?" when got is a typo of candidate X
// (see Closest), and "" otherwise.
func DidYouMean(got string, candidates []string) string {
	if best := Closest(got, candidates); best != "" {
		return "did you mean " + best + "?"
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
