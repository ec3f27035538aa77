package knowledge

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// fullDescriptor sets every field of screen.Descriptor (by reflection, so
// a field added later is covered too).
func fullDescriptor(t testing.TB) screen.Descriptor {
	var d screen.Descriptor
	v := reflect.ValueOf(&d).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("ä \"q\" " + v.Type().Field(i).Name)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int:
			f.SetInt(int64(3 + i))
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"a#b", "c"}))
		default:
			t.Fatalf("descriptor field %s of kind %s: teach descScanner about it", v.Type().Field(i).Name, f.Kind())
		}
	}
	return d
}

func TestDescriptorScannerCoversDescriptor(t *testing.T) {
	d := fullDescriptor(t)
	d.Text, d.Desc, d.Hint, d.ResourceID, d.Class = "Send", "send", "hint", "a:id/b", "android.widget.Button" // no escapes
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var got screen.Descriptor
	if !(&descScanner{b: b}).descriptor(&got) {
		t.Fatalf("the fast path does not read json.Marshal's output %s: a screen.Descriptor field was added or renamed; update descScanner", b)
	}
	if !reflect.DeepEqual(got, d) {
		t.Fatalf("fast path read %+v, want %+v", got, d)
	}
}

func TestUnmarshalDescriptor(t *testing.T) {
	full := fullDescriptor(t)
	fullJSON, _ := json.Marshal(full)
	tests := []struct {
		name string
		in   string
		fast bool // the scanner handles it (else encoding/json does)
	}{
		{"empty object", `{}`, true},
		{"canonical", `{"rid":"a:id/x","class":"android.widget.TextView","text":"Hello","path":["A#b","C#"],"near":["x"],"list":true,"ord":2}`, true},
		{"spaces", " { \"text\" : \"Hi\" ,\n\"ord\":-1 , \"path\":[ ] } ", true},
		{"unicode", `{"text":"Grüße 日本"}`, true},
		{"escapes", string(fullJSON), false},
		{"unknown key", `{"text":"a","new":1}`, false},
		{"other case", `{"TEXT":"a"}`, false},
		{"null", `{"path":null}`, false},
		{"escaped slash", `{"text":"a\/b"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want, got, fast screen.Descriptor
			if err := json.Unmarshal([]byte(tt.in), &want); err != nil {
				t.Fatal(err)
			}
			if err := unmarshalDescriptor([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if tt.in != "{}" && !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
			if ok := (&descScanner{b: []byte(tt.in)}).descriptor(&fast); ok != tt.fast {
				t.Fatalf("fast path %v, want %v", ok, tt.fast)
			}
		})
	}
	for _, bad := range []string{`{`, `{"text":1}`, `[]`, `{"ord":99999999999999999999}`, `{"text":"a"} x`, `{"ord":1.0}`} {
		var d screen.Descriptor
		if err := unmarshalDescriptor([]byte(bad), &d); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// FuzzDescriptorJSON: whatever the fast path accepts, encoding/json
// accepts with the same result.
func FuzzDescriptorJSON(f *testing.F) {
	full := fullDescriptor(f)
	b, _ := json.Marshal(full)
	f.Add(b)
	f.Add([]byte(`{"rid":"a:id/x","class":"B","text":"Hello","path":["A#b","C#"],"near":["x"],"list":true,"ord":2}`))
	f.Add([]byte(` { "text" : "Hi" , "ord" : -10 } `))
	f.Add([]byte(`{"editable":false,"checkable":true,"scrollable":true,"password":true,"hint":"h","desc":"d"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast screen.Descriptor
		ok := (&descScanner{b: b}).descriptor(&fast)
		var want screen.Descriptor
		err := json.Unmarshal(b, &want)
		if ok && (err != nil || !reflect.DeepEqual(fast, want)) {
			t.Fatalf("fast path read %q as %+v; encoding/json: %+v, %v", b, fast, want, err)
		}
		var got screen.Descriptor
		if err2 := unmarshalDescriptor(b, &got); (err2 == nil) != (err == nil || string(b) == "{}" || len(b) == 0) {
			t.Fatalf("unmarshalDescriptor error %v, encoding/json %v", err2, err)
		}
	})
}
