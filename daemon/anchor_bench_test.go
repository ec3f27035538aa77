package daemon

import (
	"fmt"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// BenchmarkAnchorFlows: one anchor decision (option and switch anchors,
// grounding included) for a command naming an option, in an app of 200
// flows over 40 screens of 12 labels: 50 flows pick from a group of 8
// options, 50 set a switch, 100 tap their way to a page.
func BenchmarkAnchorFlows(b *testing.B) {
	const pkg = "org.example.big"
	screens := make([]*knowledge.Goal, 40)
	for i := range screens {
		g := &knowledge.Goal{}
		for j := 0; j < 12; j++ {
			g.Labels = append(g.Labels, fmt.Sprintf("setting %d of page %d", j, i))
		}
		screens[i] = g
	}
	flows := map[int64]*knowledge.Flow{}
	var list []knowledge.Flow
	for i := 0; i < 200; i++ {
		f := &knowledge.Flow{ID: int64(i + 1), Package: pkg}
		where := screens[i%len(screens)]
		f.Steps = []knowledge.Step{{Action: device.Tap, Target: descriptorOf(fmt.Sprintf("Page %d", i%40)), Where: where}}
		switch i % 4 {
		case 0:
			var opts []string
			for _, tone := range []string{"red", "green", "blue", "black", "white", "pink", "gold", "grey"} {
				opts = append(opts, name(i)+" "+tone)
			}
			f.Intent, f.Slots = "set the "+name(i)+" mode to {v}", []knowledge.Slot{{Name: "v", Example: "red"}}
			f.Steps = append(f.Steps, knowledge.Step{Action: device.Tap, Text: "{v}", Choices: opts, Target: descriptorOf(opts[0])})
		case 1:
			f.Intent = "turn on the " + name(i) + " feature"
			f.Steps = append(f.Steps, knowledge.Step{Action: knowledge.StepSwitchOn, Target: descriptorOf(name(i) + " feature"), Where: where})
		default:
			f.Intent = fmt.Sprintf("open page %d details", i)
			f.Steps = append(f.Steps, knowledge.Step{Action: device.Tap, Target: descriptorOf("Details"), Where: where})
		}
		f.Name, f.Commands = f.Intent, []string{f.Intent}
		flows[f.ID] = f
		list = append(list, *f)
	}
	m := intent.NewMatcherFor(list, nil)
	command := name(120) + " mode pink please"
	if as, why := anchorFlows(command, pkg, "", m, flows); len(as) != 1 {
		b.Fatalf("anchors %+v (%q)", as, why)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		anchorFlows(command, pkg, "", m, flows)
	}
}

// name is a word made of letters only for i ("qab").
func name(i int) string {
	b := []byte{'q'}
	for ; i > 0; i /= 26 {
		b = append(b, byte('a'+i%26))
	}
	return string(b)
}
