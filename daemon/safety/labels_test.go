package safety

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
)

// recordedView is the part of a DroidBot view the label extraction reads.
type recordedView struct {
	Text          string `json:"text"`
	ContentDesc   string `json:"content_description"`
	ResourceID    string `json:"resource_id"`
	Clickable     bool   `json:"clickable"`
	LongClickable bool   `json:"long_clickable"`
	Checkable     bool   `json:"checkable"`
	Children      []int  `json:"children"`
}

// recordedTargets extracts, from the recorded screens of dir, the label
// of every clickable, long-clickable or checkable view (its own text or
// content-desc, else its first child's) with the context of its first
// occurrence (files in name order).
func recordedTargets(t *testing.T, dir string) map[string]Target {
	files, err := filepath.Glob(filepath.Join(dir, "apps", "*", "states", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded screens under %s: %v", dir, err)
	}
	sort.Strings(files)
	out := map[string]Target{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Views []recordedView `json:"views"`
		}
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, v := range st.Views {
			if !v.Clickable && !v.LongClickable && !v.Checkable {
				continue
			}
			label := firstNonEmpty(strings.TrimSpace(v.Text), strings.TrimSpace(v.ContentDesc))
			if strings.TrimSpace(label) == "" {
				for _, c := range v.Children {
					if c >= 0 && c < len(st.Views) {
						if label = firstNonEmpty(strings.TrimSpace(st.Views[c].Text), strings.TrimSpace(st.Views[c].ContentDesc)); label != "" {
							break
						}
					}
				}
			}
			label = strings.TrimSpace(label)
			if label == "" || len(label) >= 80 {
				continue
			}
			if _, seen := out[label]; seen {
				continue
			}
			toggle := v.Checkable
			for _, c := range v.Children {
				if c >= 0 && c < len(st.Views) && st.Views[c].Checkable {
					toggle = true
				}
			}
			out[label] = Target{Action: "tap", Label: label, ResourceID: v.ResourceID, Toggle: toggle}
		}
	}
	return out
}

// TestClassifierOnRecordedLabels measures the classifier against hand
// labels (testdata/safety/labels.tsv) of element labels recorded in real
// apps, and guards its precision and recall.
func TestClassifierOnRecordedLabels(t *testing.T) {
	dir := shared.Path(t, "droidtask")
	f, err := os.Open(filepath.Join("..", "..", "testdata", "safety", "labels.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]bool{}
	set := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 || (cols[1] != "0" && cols[1] != "1") {
			t.Fatalf("bad line %q", line)
		}
		want[cols[0]], set[cols[0]] = cols[1] == "1", cols[2]
	}
	targets := recordedTargets(t, dir)
	type counts struct{ tp, fp, fn, tn int }
	per := map[string]*counts{"dev": {}, "holdout": {}}
	var tp, fp, fn, tn int
	found := 0
	labels := make([]string, 0, len(targets))
	for l := range targets {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		sum := sha256.Sum256([]byte(l))
		sensitive, ok := want[hex.EncodeToString(sum[:])[:16]]
		if !ok {
			continue
		}
		found++
		got := Classify(targets[l])
		c := per[set[hex.EncodeToString(sum[:])[:16]]]
		switch {
		case got.Sensitive && sensitive:
			tp++
			c.tp++
		case got.Sensitive:
			fp++
			c.fp++
			t.Logf("false positive: %q (%s)", l, got.Why)
		case sensitive:
			fn++
			c.fn++
			t.Logf("false negative: %q", l)
		default:
			tn++
			c.tn++
		}
	}
	if found < 300 {
		t.Fatalf("only %d of %d hand-labelled labels found in the recordings", found, len(want))
	}
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(tp) / float64(max(tp+fn, 1))
	for name, c := range per {
		t.Logf("%s: tp %d fp %d fn %d tn %d", name, c.tp, c.fp, c.fn, c.tn)
	}
	t.Logf("%d labels: %d sensitive by hand; tp %d fp %d fn %d tn %d; precision %.3f recall %.3f", found, tp+fn, tp, fp, fn, tn, precision, recall)
	if precision < 0.85 || recall < 0.9 {
		t.Fatalf("precision %.3f (guard 0.85), recall %.3f (guard 0.9)", precision, recall)
	}
}
