// Package text holds the small helpers for the text that people and models
// read in messages: an excerpt that keeps a quoted value bounded
// (Excerpt), counts in English (Plural), the "did you mean" of a misspelt
// name (Closest, DidYouMean), and the one filter that removes the
// characters a model reads and a person does not see (StripInvisible,
// InvisibleLine).
//
//	text.Plural(3, "second")                    // "3 seconds"
//	text.DidYouMean("sned_sms", []string{"send_sms"}) // "did you mean send_sms?"
package text
