package screen

import "testing"

// TestIsBody: a field with text of its own that scrolls or fills much of
// the screen is a document's body, which typing would replace; a one-line
// field, an empty one, one showing its hint, a password field and an
// element that is no field are not.
func TestIsBody(t *testing.T) {
	tall, short := Rect{0, 400, 1080, 2200}, Rect{40, 600, 1040, 720}
	for _, tt := range []struct {
		name       string
		e          Element
		scrollable bool
		want       bool
	}{
		{"a note's body", Element{Kind: KindInput, Value: "Packing list: socks", Bounds: tall}, false, true},
		{"a scrolling field", Element{Kind: KindInput, Value: "Dear team,", Bounds: short}, true, true},
		{"a title field", Element{Kind: KindInput, Value: "Old name", Bounds: short}, false, false},
		{"an empty body", Element{Kind: KindInput, Bounds: tall}, false, false},
		{"a body showing its hint", Element{Kind: KindInput, Value: "Start typing", Hint: "Start typing", Bounds: tall}, false, false},
		{"a tall password field", Element{Kind: KindInput, Value: "••••", Password: true, Bounds: tall}, false, false},
		{"a tall text", Element{Kind: KindText, Value: "Packing list: socks", Bounds: tall}, false, false},
	} {
		s := &Snapshot{Width: 1080, Height: 2400, Nodes: []Node{{ID: 0, Parent: -1, Scrollable: tt.scrollable}}}
		if got := IsBody(s, &tt.e); got != tt.want {
			t.Errorf("%s: IsBody = %v, want %v", tt.name, got, tt.want)
		}
	}
	if IsBody(nil, &Element{Kind: KindInput, Value: "x"}) {
		t.Error("IsBody(nil snapshot) = true")
	}
}

// TestWriting: a field's text from the Android service is the owner's; in
// a dump that shows placeholders as text, only a sentence's worth is.
func TestWriting(t *testing.T) {
	for _, tt := range []struct {
		source, value string
		want          bool
	}{
		{"device", "eggs", true},
		{"device", "", false},
		{"uiautomator", "Start typing", false},
		{"droidbot", "Dear team, the trip is on", true},
		{"droidbot", "eggs\nmilk", true},
	} {
		s := &Snapshot{Source: tt.source}
		if got := Writing(s, &Element{Kind: KindInput, Value: tt.value}); got != tt.want {
			t.Errorf("%s %q: Writing = %v, want %v", tt.source, tt.value, got, tt.want)
		}
	}
}

// TestTitle: a pane title, else the first text in the top band of the top
// window, names the screen; a first text further down does not.
func TestTitle(t *testing.T) {
	doc := func(nodes string) string {
		return `{"schema":1,"width":1080,"height":2400,"windows":[{"id":1,"type":"application","layer":1,"bounds":[0,0,1080,2400],"nodes":[
		 {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1080,2400],"visible_to_user":true,"enabled":true},` + nodes + `]}]}`
	}
	for _, tt := range []struct{ name, nodes, want string }{
		{"toolbar title", `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Dora Lind","bounds":[180,90,700,200],"visible_to_user":true,"enabled":true},
		 {"id":2,"parent":0,"class":"android.widget.Button","text":"Delete","clickable":true,"bounds":[0,900,1080,1000],"visible_to_user":true,"enabled":true}`, "Dora Lind"},
		{"pane title", `{"id":1,"parent":0,"class":"android.widget.FrameLayout","pane_title":"Trip notes","bounds":[0,0,1080,2400],"visible_to_user":true,"enabled":true},
		 {"id":2,"parent":1,"class":"android.widget.TextView","text":"Day one","bounds":[0,100,1080,200],"visible_to_user":true,"enabled":true}`, "Trip notes"},
		{"first text far down", `{"id":1,"parent":0,"class":"android.widget.TextView","text":"No items yet","bounds":[0,1200,1080,1300],"visible_to_user":true,"enabled":true}`, ""},
	} {
		s, err := ParseJSON([]byte(doc(tt.nodes)))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := Title(s); got != tt.want {
			t.Errorf("%s: Title = %q, want %q", tt.name, got, tt.want)
		}
	}
}
