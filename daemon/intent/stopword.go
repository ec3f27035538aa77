package intent

import "strings"

// IsStopword reports whether word (any case) is a stopword of the
// vocabulary: articles, pronouns, prepositions, politeness and light verbs
// that carry no meaning on their own.
func IsStopword(word string) bool { return stopwords[strings.ToLower(word)] }
