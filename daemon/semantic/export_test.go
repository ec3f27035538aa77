package semantic

import "time"

// SetClock replaces r's clock (cooldown tests).
func SetClock(r *Rescorer, now func() time.Time) { r.now = now }

var OtherValue = otherValue

var PickedTemplate = pickedTemplate
