package screen

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestFingerprintVsStateStr measures how Fingerprint groups the DroidTask
// screens against the data set's own ids (state_str, AutoDroid's hash over
// a text rendering that ignores times). It logs a table and asserts only
// sanity: every state has a fingerprint, no fingerprint group crosses
// activities, and fingerprints do not collapse the data set.
//
//	go test -run TestFingerprintVsStateStr -v ./daemon/screen/
//
// Columns: state_str ids; fingerprints; merged = fingerprints covering more
// than one state_str, and the state_strs they absorb; cross = merged groups
// whose states have different activities; cf = DroidBot's content-free
// state ids (state_str_content_free) for comparison. "split" (one state_str,
// several fingerprints) needs the raw captures listed in source_files:
// canonical files hold one capture per state_str, so it is 0 by
// construction there.
func TestFingerprintVsStateStr(t *testing.T) {
	states := loadDroidTask(t)
	type row struct {
		ids, fps, merged, absorbed, cross, cf, largest int
		rawListed, rawFound, split                     int
	}
	rows := map[string]*row{}
	total := &row{}
	type group struct {
		ids  map[string]bool
		acts map[string]bool
	}
	allGroups := map[string]*group{} // app + fingerprint
	for _, app := range droidApps {
		rows[app] = &row{}
	}
	cfIDs := map[string]map[string]bool{}
	for _, st := range states {
		r := rows[st.App]
		r.ids++
		fp := Fingerprint(st.Snap)
		if len(fp) != 32 {
			t.Fatalf("%s/%s: fingerprint %q", st.App, st.Name, fp)
		}
		k := st.App + "/" + fp
		g := allGroups[k]
		if g == nil {
			g = &group{ids: map[string]bool{}, acts: map[string]bool{}}
			allGroups[k] = g
		}
		g.ids[st.Name] = true
		g.acts[st.Snap.Activity] = true
		if cfIDs[st.App] == nil {
			cfIDs[st.App] = map[string]bool{}
		}
		cfIDs[st.App][contentFreeID(st.Raw)] = true
		r.rawListed += len(st.Extra.SourceFiles)
	}
	var examples []string
	for k, g := range allGroups {
		app := k[:strings.IndexByte(k, '/')]
		r := rows[app]
		r.fps++
		if len(g.ids) > 1 {
			r.merged++
			r.absorbed += len(g.ids)
			r.largest = max(r.largest, len(g.ids))
			if len(g.acts) > 1 {
				r.cross++
			}
			var acts []string
			for a := range g.acts {
				acts = append(acts, activityName(a))
			}
			sort.Strings(acts)
			examples = append(examples, fmt.Sprintf("%3d state_strs  %s  %s", len(g.ids), app, strings.Join(acts, ",")))
		}
	}
	// The split part: raw captures are state files named in source_files;
	// look for them beside the canonical states.
	rawFP := map[string]map[string]bool{} // app/state_str -> fingerprints of its raw captures
	for _, st := range states {
		for _, f := range st.Extra.SourceFiles {
			for _, dir := range []string{filepath.Dir(st.Path), filepath.Join(filepath.Dir(st.Path), "..", "raw_states"), filepath.Join(filepath.Dir(st.Path), "..", "raw")} {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					continue
				}
				s, err := ParseDroidBot(b)
				if err != nil {
					t.Errorf("raw capture %s: %v", f, err)
					break
				}
				k := st.App + "/" + st.Name
				if rawFP[k] == nil {
					rawFP[k] = map[string]bool{}
				}
				rawFP[k][Fingerprint(s)] = true
				rows[st.App].rawFound++
				break
			}
		}
	}
	for k, fps := range rawFP {
		if len(fps) > 1 {
			rows[k[:strings.IndexByte(k, '/')]].split++
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\n%-12s %9s %6s %6s %8s %7s %5s %5s %9s %9s %5s\n", "app", "state_str", "fps", "merged", "absorbed", "largest", "cross", "cf", "raw-listed", "raw-found", "split")
	for _, app := range droidApps {
		r := rows[app]
		r.cf = len(cfIDs[app])
		fmt.Fprintf(&b, "%-12s %9d %6d %6d %8d %7d %5d %5d %9d %9d %5d\n", app, r.ids, r.fps, r.merged, r.absorbed, r.largest, r.cross, r.cf, r.rawListed, r.rawFound, r.split)
		total.ids += r.ids
		total.fps += r.fps
		total.merged += r.merged
		total.absorbed += r.absorbed
		total.largest = max(total.largest, r.largest)
		total.cross += r.cross
		total.cf += r.cf
		total.rawListed += r.rawListed
		total.rawFound += r.rawFound
		total.split += r.split
	}
	fmt.Fprintf(&b, "%-12s %9d %6d %6d %8d %7d %5d %5d %9d %9d %5d\n", "total", total.ids, total.fps, total.merged, total.absorbed, total.largest, total.cross, total.cf, total.rawListed, total.rawFound, total.split)
	t.Log(b.String())
	sort.Sort(sort.Reverse(sort.StringSlice(examples)))
	if len(examples) > 8 {
		examples = examples[:8]
	}
	t.Logf("largest merged groups:\n  %s", strings.Join(examples, "\n  "))
	if total.rawFound == 0 {
		t.Logf("split: skipped — none of the %d raw captures named in source_files is present (only canonical states are kept)", total.rawListed)
	}

	if total.cross != 0 {
		t.Errorf("%d fingerprint groups cross activities (the activity is part of the fingerprint)", total.cross)
	}
	if total.fps < total.ids/4 || total.fps > total.ids {
		t.Errorf("%d fingerprints for %d state_strs", total.fps, total.ids)
	}
}

// contentFreeID reads state_str_content_free from a raw state file.
func contentFreeID(raw []byte) string {
	const key = `"state_str_content_free":`
	i := strings.Index(string(raw), key)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(string(raw[i+len(key):]), " ")
	if j := strings.IndexByte(rest[1:], '"'); rest != "" && rest[0] == '"' && j >= 0 {
		return rest[1 : j+1]
	}
	return ""
}
