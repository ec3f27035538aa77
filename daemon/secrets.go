package daemon

import (
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// The command's secrets (a password it gives) kept out of what the store
// keeps of a screen: an element's descriptor (its text, content-desc,
// hint, neighbouring labels), a step's screen description and option
// labels. A screen rarely shows a secret, but a field that is no
// password field shows what was typed into it.

// anyCase returns secrets as written and in lower case (a descriptor
// keeps its neighbours' labels lower-cased).
func anyCase(secrets []string) []string {
	out := slices.Clone(secrets)
	for _, s := range secrets {
		if l := strings.ToLower(s); l != s {
			out = append(out, l)
		}
	}
	return out
}

// redactLabels returns labels with secrets redacted (a copy; nil stays nil).
func redactLabels(labels []string, secrets []string) []string {
	if labels == nil {
		return nil
	}
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = privacy.Redact(l, secrets, false)
	}
	return out
}

// redactDescriptor returns d with secrets redacted from its texts.
func redactDescriptor(d screen.Descriptor, secrets []string) screen.Descriptor {
	d.Text, d.Desc, d.Hint = privacy.Redact(d.Text, secrets, false), privacy.Redact(d.Desc, secrets, false), privacy.Redact(d.Hint, secrets, false)
	d.Neighbors = redactLabels(d.Neighbors, secrets)
	return d
}

// redactGoal returns a copy of g with secrets redacted from its labels.
func redactGoal(g *knowledge.Goal, secrets []string) *knowledge.Goal {
	if g == nil {
		return nil
	}
	c := *g
	c.Labels = redactLabels(g.Labels, secrets)
	return &c
}

// redactSteps redacts the run's secrets from steps, in place: their
// targets, screen descriptions and option labels.
func (r *run) redactSteps(steps []knowledge.Step) {
	if len(r.secrets) == 0 {
		return
	}
	secrets := anyCase(r.secrets)
	for i := range steps {
		s := &steps[i]
		s.Target = redactDescriptor(s.Target, secrets)
		s.Where = redactGoal(s.Where, secrets)
		s.Choices, s.Options = redactLabels(s.Choices, secrets), redactLabels(s.Options, secrets)
		s.Comment = privacy.Redact(s.Comment, secrets, false)
	}
}
