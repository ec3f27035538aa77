// Package llm owns Wayfinder's conversation with a remote, OpenAI-compatible
// chat-completions and embeddings endpoint (OpenAI, DeepSeek, Ollama, vLLM,
// LM Studio):
//
//   - Config: endpoint, model and key, read from the environment or given
//     by the app; it never prints, logs or marshals its API key.
//   - Client: one chat completion per call, with a per-call timeout,
//     exponential backoff with jitter on 429/5xx/transient network errors
//     (honouring Retry-After), and token accounting (Usage); Embed, one
//     embeddings request (Config.EmbedModel) under the same rules.
//   - Schema: a JSON Schema generated from a Go type
//     (github.com/invopop/jsonschema) and checked by a JSON Schema validator
//     (github.com/santhosh-tekuri/jsonschema) whose errors name the
//     failing path ("$.action: ...").
//   - CompleteJSON: ask for a JSON reply constrained to the schema of the
//     Go reply type (the strongest response format the endpoint accepts:
//     Format), validate it, decode it, run a semantic check, and perform
//     exactly one repair retry on failure. Every reply is bounded by
//     Config.MaxTokens; Client.Stats counts valid replies, repairs,
//     timeouts, prompt tokens and latency.
//   - Prompts: embedded text/template files (prompts/*.tmpl) executed with
//     typed data (NextActionData, CheckData, DescribeData), and Redact,
//     which strips secrets from a rendered prompt before it is logged.
//
// The package is the only place that talks to the model. It must not touch
// the device, parse screens (it receives the compact screen rendering as a
// string from package screen), or read or write the knowledge store. It
// never logs prompts or replies itself: callers that log or stream a prompt
// pass it through Redact first.
//
// Sources: the next-action prompt follows the flow-guided "determine next
// action" step of Phan & Luong's mobile virtual assistant and UICOMPASS §3.3
// (adaptive instruction replanning with an instruction list); the check
// prompt is AutoTask §4.5 (completeness and correctness checks, penalty
// 0-9); the describe prompt is AppAgent §3.3 (element documentation learned
// from before/after observations, refined with earlier documentation).
package llm
