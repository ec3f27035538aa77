package safety

import (
	"reflect"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		t    Target
		want []Category // nil: not sensitive
	}{
		{"transfer money", Target{Action: "tap", Label: "Transfer $500"}, []Category{Money}},
		{"factory reset", Target{Action: "tap", Label: "Factory reset"}, []Category{Destroy}},
		{"wipe data", Target{Action: "tap", Label: "Wipe data"}, []Category{Destroy}},
		{"sign out", Target{Action: "tap", Label: "Sign out"}, []Category{Account}},
		{"move to trash", Target{Action: "tap", Label: "Move to trash"}, []Category{Destroy}},
		{"clear data", Target{Action: "tap", Label: "Clear data"}, []Category{Destroy}},
		{"discard", Target{Action: "tap", Label: "Discard"}, []Category{Destroy}},
		{"share", Target{Action: "tap", ContentDesc: "Share"}, []Category{Send}},
		{"forward", Target{Action: "long_press", Label: "Forward"}, []Category{Send}},
		{"checkout", Target{Action: "tap", Label: "Checkout"}, []Category{Money}},
		{"inflection", Target{Action: "tap", Label: "Deleting…"}, []Category{Destroy}},
		{"french", Target{Action: "tap", Label: "Supprimer"}, []Category{Destroy}},
		{"german umlaut", Target{Action: "tap", Label: "Löschen"}, []Category{Destroy}},
		{"spanish send", Target{Action: "tap", Label: "Enviar"}, []Category{Send}},
		{"portuguese delete", Target{Action: "tap", Label: "Excluir"}, []Category{Destroy}},
		{"chinese delete", Target{Action: "tap", Label: "删除"}, []Category{Destroy}},
		{"japanese send", Target{Action: "tap", Label: "送信"}, []Category{Send}},
		{"resource id words", Target{Action: "tap", ResourceID: "com.example:id/btnDeleteAll"}, []Category{Destroy}},
		{"resource id underscores", Target{Action: "tap", ResourceID: "com.example:id/send_button"}, []Category{Send}},
		{"delete account", Target{Action: "tap", Label: "Delete account"}, []Category{Account, Destroy}},
		{"dialog ok", Target{Action: "tap", Label: "OK", Dialog: []string{"Delete 3 items?"}}, []Category{Destroy}},
		{"dialog yes german", Target{Action: "tap", Label: "Ja", Dialog: []string{"Nachricht löschen?"}}, []Category{Destroy}},
		{"dialog cancel", Target{Action: "tap", Label: "Cancel", Dialog: []string{"Delete 3 items?"}}, nil},
		{"harmless dialog ok", Target{Action: "tap", Label: "OK", Dialog: []string{"Theme changed"}}, nil},
		{"ok outside dialog", Target{Action: "tap", Label: "OK"}, nil},
		{"call log is a place", Target{Action: "tap", Label: "Call log"}, nil},
		{"payment methods is a place", Target{Action: "tap", Label: "Payment methods"}, nil},
		{"settings", Target{Action: "tap", Label: "Settings"}, nil},
		{"dark theme", Target{Action: "tap", Label: "Dark theme"}, nil},
		{"save", Target{Action: "tap", Label: "Save"}, nil},
		{"typing is not activating", Target{Action: "input", Label: "Delete"}, nil},
		{"scroll", Target{Action: "scroll", Label: "Send"}, nil},
		{"call button", Target{Action: "tap", ContentDesc: "Call"}, []Category{Call}},
		{"a number row", Target{Action: "tap", Label: "555 0100 · Mobile"}, []Category{Call}},
		{"an international number's row", Target{Action: "tap", Label: "+44 (20) 7946-0958 · Work"}, []Category{Call}},
		{"a lone number", Target{Action: "tap", Label: "7946 0958"}, nil},
		{"a long press on a number row", Target{Action: "long_press", Label: "555 0100 · Mobile"}, nil},
		// where the UI graph says an action led: an ongoing call's controls
		{"a call log's row that led to a call", Target{Action: "tap", Label: "Dora · Yesterday · 4 min", Next: []string{"Dora", "Mute", "Hang up"}}, []Category{Call}},
		{"a row that led to a contact's card", Target{Action: "tap", Label: "Dora · Yesterday · 4 min", Next: []string{"Dora", "Call", "Edit"}}, nil},
		{"a row that led to an in-call screen, in Spanish", Target{Action: "tap", Label: "Dora", Next: []string{"Colgar"}}, []Category{Call}},
		{"a date row", Target{Action: "tap", Label: "30.06.2023 · 3 items"}, nil},
		{"a time of day", Target{Action: "tap", Label: "12:30"}, nil},
		{"a short number's row", Target{Action: "tap", Label: "20 · Tracks"}, nil},
		{"a quantity", Target{Action: "tap", Label: "128 kbps"}, nil},
		{"send key", Target{Action: "ime_enter", Label: "Send message"}, []Category{Send}},
		{"enter in a compose field", Target{Action: "ime_enter", Label: "Type a message", Beside: []string{"Attach", "send message button"}}, []Category{Send}},
		{"enter in a form field", Target{Action: "ime_enter", Label: "New note", Beside: []string{"Cancel", "Create"}}, nil},
		{"enter in a search field", Target{Action: "ime_enter", Label: "Search", ResourceID: "com.x:id/top_toolbar_search"}, nil},
		{"enter in a query field by id", Target{Action: "ime_enter", ResourceID: "com.x:id/search_src_text"}, nil},
		{"no label", Target{Action: "tap"}, nil},
		{"description mentions deletion", Target{Action: "tap", Label: "Keep the file in sync with the note (the note is deleted when the file is deleted)"}, nil},
		{"permanently delete", Target{Action: "tap", Label: "Permanently delete"}, []Category{Destroy}},
		{"typing over a document's text", Target{Action: "input", Label: "Packing list", Replaces: 212}, []Category{Overwrite}},
		{"typing into a form field", Target{Action: "input", Label: "Title"}, nil},
		{"a tap on a body is no typing", Target{Action: "tap", Label: "Packing list", Replaces: 212}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Classify(tt.t)
			if v.Sensitive != (tt.want != nil) || !reflect.DeepEqual(v.Categories, tt.want) {
				t.Fatalf("Classify(%+v) = %+v, want categories %v", tt.t, v, tt.want)
			}
			if v.Sensitive && v.Why == "" {
				t.Fatalf("a sensitive verdict must say why: %+v", v)
			}
		})
	}
}

func TestRequestedAndDecide(t *testing.T) {
	del := Target{Action: "tap", Label: "Delete"}
	delAccount := Target{Action: "tap", Label: "Delete account"}
	send := Target{Action: "tap", ContentDesc: "Send"}
	body := Target{Action: "input", Label: "Shopping", Replaces: 40}
	tests := []struct {
		name    string
		command string
		t       Target
		p       Policy
		want    Decision
	}{
		{"asked delete confirms", "delete the shopping note", del, Policy{}, Confirm},
		{"inflected command", "deleting my old alarms please", del, Policy{}, Confirm},
		{"synonym command", "get rid of the grocery note", del, Policy{}, Confirm},
		{"unasked delete refused", "show the ledger note", del, Policy{}, Refuse},
		{"unasked even unattended", "show the ledger note", del, Policy{Unattended: true}, Refuse},
		{"delete note does not ask to delete the account", "delete the ledger note", delAccount, Policy{}, Refuse},
		{"text asks to send", "text Alice I'm late", send, Policy{}, Confirm},
		// a vocabulary word after a determiner is a noun: no ask
		{"deleting a text asks to send nothing", "delete the text from Dora", send, Policy{}, Refuse},
		{"my phone is the device", "how much storage does my phone have", Target{Action: "tap", ContentDesc: "Call"}, Policy{}, Refuse},
		{"phone as a verb calls", "phone Dora", Target{Action: "tap", ContentDesc: "Call"}, Policy{}, Confirm},
		{"send the message sends", "send the message to Dora", send, Policy{}, Confirm},
		{"a call asked for", "give Dora a call", Target{Action: "tap", ContentDesc: "Call"}, Policy{}, Confirm},
		{"a blanked noun keeps the verb apart from a place", "erase the call history", Target{Action: "tap", Label: "Clear call log"}, Policy{}, Confirm},
		{"unattended acts", "text Alice I'm late", send, Policy{Unattended: true}, Act},
		{"allowed flow acts", "delete the shopping note", del, Policy{Allowed: true}, Act},
		{"replay confirms what its intent does not name", "tidy up", del, Policy{Replay: true}, Confirm},
		{"harmless acts", "show the ledger note", Target{Action: "tap", Label: "Ledger"}, Policy{}, Act},
		{"typing over a note unasked refused", "make the ledger font bigger", body, Policy{Unattended: true}, Refuse},
		{"adding to a note does not ask to replace it", "write eggs in the shopping note", body, Policy{}, Refuse},
		{"replacing a note's text confirms", "replace the shopping note's text with eggs", body, Policy{}, Confirm},
		{"clearing a note confirms", "clear the shopping note and write eggs", body, Policy{}, Confirm},
		{"a replay confirms typing over a note", "add eggs to my list", body, Policy{Replay: true}, Confirm},
		{"replacing in German confirms", "ersetze den Text der Einkaufsnotiz durch Eier", body, Policy{}, Confirm},
		{"replacing in French confirms", "remplace le texte de la note par oeufs", body, Policy{}, Confirm},
		{"writing in Spanish is no replacing", "escribe huevos en la nota", body, Policy{}, Refuse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, v := Decide(tt.command, tt.t, tt.p)
			if got != tt.want {
				t.Fatalf("Decide(%q, %+v, %+v) = %s (%+v), want %s", tt.command, tt.t, tt.p, got, v, tt.want)
			}
		})
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"Delete", "删除", "OK", "com.x:id/btnSend", "Löschen?", "\xff\xfe"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, label, dialog string) {
		v := Classify(Target{Action: "tap", Label: label, ResourceID: label, Dialog: []string{dialog}, Next: []string{dialog}})
		if v.Sensitive != (len(v.Categories) > 0) {
			t.Fatalf("inconsistent verdict %+v", v)
		}
		// a command's nouns only ever take an ask away
		raw := asks(label)
		for _, c := range Implied(label) {
			if !contains(raw, c) {
				t.Fatalf("Implied(%q) = %v asks %s, which the words as written (%v) do not", label, Implied(label), c, raw)
			}
		}
	})
}
