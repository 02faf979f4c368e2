// Plural writes counts of things in English, for messages that
// people and models read: "1 second", "6 seconds".

package text

import "strconv"

// Plural returns n followed by noun, which takes an s unless n is 1. It is
// for nouns whose plural is noun+"s", which every caller's are.
func Plural(n int, noun string) string {
	if n != 1 {
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}
