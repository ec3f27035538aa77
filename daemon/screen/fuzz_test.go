package screen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
)

// Fuzz targets for every parser of outside input. Property: no panic; on
// success the snapshot meets the model's invariants, screen understanding
// runs on it, every node grounds back to itself, and its snapshot JSON (and,
// for uiautomator input, its XML) re-parses into an equal model.
//
//	go test -run='^$' -fuzz=FuzzParseJSON -fuzztime=60s -fuzzminimizetime=100x ./daemon/screen/
//
// (Without -fuzzminimizetime=100x, minimising each new input may take the
// default 60 s, and on a busy machine the run then reports 0 execs/s.)

const seedJSON = `{"schema":1,"width":1080,"height":2400,"activity":"com.example.notes/.MainActivity","package":"com.example.notes","windows":[` +
	`{"id":42,"type":"application","package":"com.example.notes","title":"Notes","layer":1,"focused":true,"bounds":[0,0,1080,2400],"nodes":[` +
	`{"id":0,"parent":-1,"class":"android.widget.FrameLayout","package":"com.example.notes","bounds":[0,0,1080,2400],"enabled":true,"visible_to_user":true},` +
	`{"id":1,"parent":0,"class":"android.widget.Button","resource_id":"com.example.notes:id/save","text":"Save","bounds":[40,2200,520,2330],"clickable":true,"focusable":true,"enabled":true,"visible_to_user":true},` +
	`{"id":2,"parent":0,"class":"android.widget.EditText","hint":"Title","text":"Groceries 12:30","editable":true,"bounds":[40,200,1040,330],"enabled":true,"visible_to_user":true},` +
	`{"id":3,"parent":0,"class":"android.widget.EditText","password":true,"text":"pw","bounds":[40,400,1040,530],"visible_to_user":true}]},` +
	`{"id":7,"type":"input_method","layer":2,"bounds":[0,1600,1080,2400],"nodes":[{"id":10,"parent":-1,"class":"K","bounds":[0,1600,1080,2400],"visible_to_user":true}]}]}`

const seedDroidBot = `{"tag":"t","state_str":"abc","foreground_activity":"a.b/.Main","width":1080,"height":2280,"views":[` +
	`{"temp_id":0,"parent":-1,"children":[1,2],"class":"android.widget.FrameLayout","package":"a.b","resource_id":null,"text":null,"content_description":null,"bounds":[[0,0],[1080,2280]],"visible":true,"enabled":true},` +
	`{"temp_id":1,"parent":0,"children":[],"class":"android.widget.TextView","package":"a.b","resource_id":"a.b:id/title","text":"Notes","bounds":[[0,0],[1080,200]],"visible":true,"enabled":true},` +
	`{"temp_id":2,"parent":0,"children":[3],"class":"android.widget.LinearLayout","package":"a.b","bounds":[[0,200],[1080,400]],"visible":true,"clickable":true,"enabled":true},` +
	`{"temp_id":3,"parent":2,"children":[],"class":"android.widget.TextView","text":"Row 1","content_description":"r","bounds":[[0,200],[1080,400]],"visible":true,"is_password":true}]}`

const seedXML = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
	`<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.app" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,1920]">` +
	`<node index="0" text="OK" resource-id="android:id/button1" class="android.widget.Button" package="com.app" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[10,10][200,100]"/>` +
	`<node index="1" text="OK" resource-id="android:id/button1" class="android.widget.Button" package="com.app" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[210,10][400,100]"/>` +
	`<node index="2" text="a &amp; b" class="android.widget.EditText" password="true" bounds="[0,200][1080,300]"/>` +
	`</node><node class="android.inputmethodservice.SoftInputWindow" package="ime" bounds="[0,1500][1080,1920]"/></hierarchy>`

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{seedJSON, `{"windows":[]}`, `{}`, `{"windows":[{"nodes":[{"id":3,"parent":-1}]}]}`, `[`, `{"width":"x"}`} {
		f.Add([]byte(s))
	}
	addSharedSeeds(f, func(b []byte) []byte {
		s, err := ParseDroidBot(b)
		if err != nil {
			return nil
		}
		j, _ := s.MarshalJSON()
		return j
	}, "droidtask")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseJSON(b)
		if err != nil {
			checkErr(t, err, s)
			return
		}
		checkParsed(t, s, false)
	})
}

func FuzzParseDroidBot(f *testing.F) {
	for _, s := range []string{seedDroidBot, `{"views":[]}`, `{"views":[{"temp_id":0,"parent":-1,"bounds":[[0,0],[1,1]]}]}`,
		`{"views":[{"temp_id":0,"parent":-1,"bounds":[[5,5],[1,1]]},{"temp_id":1,"parent":-1,"bounds":[[0,0],[9,9]]}]}`, `null`} {
		f.Add([]byte(s))
	}
	addSharedSeeds(f, func(b []byte) []byte { return b }, "droidtask")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseDroidBot(b)
		if err != nil {
			checkErr(t, err, s)
			return
		}
		checkParsed(t, s, false)
	})
}

func FuzzParseUIAutomator(f *testing.F) {
	for _, s := range []string{seedXML, `<hierarchy/>`, `<hierarchy><node bounds="[0,0][1,1]"/></hierarchy>`, `<node/>`, `<hierarchy><node bounds="[9,9][1,1]"><node text="&#x9;x&#xD;" bounds="[0,0][1,1]"/></node></hierarchy>`} {
		f.Add([]byte(s))
	}
	addSharedSeeds(f, func(b []byte) []byte { return b }, "fixtures")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseUIAutomator(b)
		if err != nil {
			checkErr(t, err, s)
			return
		}
		checkParsed(t, s, true)
	})
}

// addSharedSeeds adds a few real files from ../shared as seeds, read at run
// time (never copied), when present.
func addSharedSeeds(f *testing.F, conv func([]byte) []byte, which string) {
	d := shared.Dir()
	if d == "" {
		return
	}
	var files []string
	switch which {
	case "droidtask":
		for _, app := range []string{"notes", "clock"} {
			m, _ := filepath.Glob(filepath.Join(d, "droidtask", "apps", app, "states", "*.json"))
			if len(m) > 2 {
				m = m[:2]
			}
			files = append(files, m...)
		}
	case "fixtures":
		m, _ := filepath.Glob(filepath.Join(d, "fixtures", "uiautomator", "trace_*", "[01].xml"))
		files = append(files, m...)
	}
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			if c := conv(b); c != nil {
				f.Add(c)
			}
		}
	}
}

func checkErr(t *testing.T, err error, s *Snapshot) {
	t.Helper()
	if s != nil {
		t.Fatalf("snapshot returned with error %v", err)
	}
	if _, ok := err.(*FieldError); !ok {
		t.Fatalf("error %T %v is not a *FieldError", err, err)
	}
	if err.Error() == "" {
		t.Fatal("empty error")
	}
}

// checkParsed asserts the properties every successfully parsed snapshot
// must have. fromXML: the snapshot came from uiautomator XML, so its XML
// must round-trip exactly too.
func checkParsed(t *testing.T, s *Snapshot, fromXML bool) {
	t.Helper()
	if bad := checkInvariants(s); len(bad) > 0 {
		t.Fatalf("invariants: %v", bad)
	}
	keep := Keep(s)
	if len(keep) != len(s.Nodes) {
		t.Fatalf("Keep has %d entries for %d nodes", len(keep), len(s.Nodes))
	}
	elems := Elements(s)
	for i, e := range elems {
		if e.Index != i || s.Node(e.NodeID) == nil || !keep[e.NodeID] {
			t.Fatalf("element %d: %+v", i, e)
		}
	}
	_ = Render(elems)
	fp := Fingerprint(s)
	if len(fp) != 32 {
		t.Fatalf("fingerprint %q", fp)
	}
	if sim := Similarity(s, s); sim != 1 {
		t.Fatalf("Similarity(s, s) = %v", sim)
	}
	// every kept node grounds back to itself (a few, to bound the time)
	grounded := 0
	for i := range s.Nodes {
		if !keep[i] || s.Nodes[i].Class == "" || grounded >= 8 {
			continue
		}
		grounded++
		d := Describe(s, i)
		m, ok := Ground(s, d)
		if !ok || m.NodeID != i {
			t.Fatalf("Ground(Describe(%d)) = %+v, %v", i, m, ok)
		}
	}
	_ = Describe(s, -1)
	_ = Describe1(s, len(s.Nodes))
	_ = s.HitTest(s.Width/2, s.Height/2)

	j, err := s.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	s2, err := ParseJSON(j)
	if err != nil {
		t.Fatalf("MarshalJSON output does not re-parse: %v\n%s", err, j)
	}
	if d := diffModels(s, s2); d != "" {
		t.Fatalf("JSON round trip: %s", d)
	}
	if Fingerprint(s2) != fp {
		t.Fatalf("JSON round trip changed the fingerprint")
	}
	x, err := MarshalUIAutomator(s)
	if err != nil {
		t.Fatalf("MarshalUIAutomator: %v", err)
	}
	s3, err := ParseUIAutomator(x)
	if err != nil {
		t.Fatalf("MarshalUIAutomator output does not re-parse: %v\n%s", err, x)
	}
	if fromXML {
		if d := diffModels(s, s3); d != "" {
			t.Fatalf("XML round trip: %s", d)
		}
	}
}

// maskVolatileRef is MaskVolatile as the two regexps define it.
func maskVolatileRef(s string) string {
	s = Normalize(s)
	s = reDigits.ReplaceAllString(s, "#")
	return reVolatile.ReplaceAllString(s, "#")
}

// FuzzMaskVolatile: the regexp-free MaskVolatile equals the regexps.
func FuzzMaskVolatile(f *testing.F) {
	for _, s := range []string{"10:30 a.m. Mon", "a.m.x", "am.", "p.m", "A.M", "Jan2024", "january_x", "_jan", "ſun", "Today, 5 Sept",
		"apr april aug august pm.m", "a..m", "12:00 PM", "sunday-monday", "march.", "", "a", "p.m.p.m.", "7am", "Tues3", "Wi-Fi · 3 PM", "é.m. p.m·", "ſunday", "SUNDAY", "\xffam\xff", "Kam"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := MaskVolatile(s), maskVolatileRef(s); got != want {
			t.Fatalf("MaskVolatile(%q) = %q, regexps give %q", s, got, want)
		}
	})
}

// FuzzNormalize: the ASCII fast paths of Normalize equal its definition.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", " ", "a", " Hello  World\t", "already clean", "x\u00a0y", "\v\fA\rB\n", "ÄB c", "a  b", "a "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
		if got := Normalize(s); got != want {
			t.Fatalf("Normalize(%q) = %q, want %q", s, got, want)
		}
	})
}
