// Package intent understands commands and matches them to saved flows
// without a model.
//
// It owns: tokenization (Tokenize: words, quoted strings, numbers, times,
// dates), stemming and stop words (Stem, IsStopword: the Snowball English
// stemmer and list, with UI exceptions), the generic UI vocabulary of
// action and object concepts with their synonyms (Concepts, Synonyms:
// "remove" matches a "Delete" button, "⋮" means more options), command
// understanding (Understand: verbs, values, target words — the offline
// counterpart of AutoTask §4.2.2), flow ranking with slot filling
// (Matcher: PromptRPA's historical repository lookup, §4.1.2/§4.2.1, and
// the virtual assistant's "find similar flows"), replay-threshold
// calibration (Calibrate, DefaultThreshold), intent templates from
// successful commands (Template, TemplateWithLabels), and app
// identification (IdentifyApp).
//
// Design rule: precision first. A wrong flow replayed is worse than a
// miss, so opposite verb concepts (on/off, enable/disable, add/delete,
// lock/unlock, …) push a score far below DefaultThreshold, a flow needing
// a slot value the command does not give scores below it, and command
// values a flow would drop are penalised. Candidate.Vetoes says which of
// these rules applied, so that other evidence (embeddings, in
// daemon/semantic) never lifts a vetoed candidate, and lifts others only
// within GreyZone below the threshold.
//
// The vocabulary is generic English and Android UI convention; the
// package holds no rule about a particular app. It is pure Go and must
// not touch the device, the network, the LLM or the knowledge store; it
// reads knowledge.Flow values handed to it.
package intent
