package semantic

import (
	"context"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// SetClock replaces r's clock (cooldown tests).
func SetClock(r *Rescorer, now func() time.Time) { r.now = now }

var OtherValue = otherValue

var PickedTemplate = pickedTemplate

// ChoicesSaid is r.choicesSaid.
func ChoicesSaid(r *Rescorer, ctx context.Context, command string, cands []intent.Candidate, flows map[int64]*knowledge.Flow) []bool {
	return r.choicesSaid(ctx, command, cands, flows)
}
