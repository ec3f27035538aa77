package privacy

import (
	"reflect"
	"strings"
	"testing"
)

func TestSecretsIn(t *testing.T) {
	for _, tt := range []struct {
		command string
		want    []string
	}{
		{"log in with password hunter2", []string{"hunter2"}},
		{"my PIN is 4321, unlock it", []string{"4321"}},
		{`set the wifi password to "correct horse"`, []string{"correct horse"}},
		{"mot de passe : soleil", []string{"soleil"}},
		{"Passwort ist geheim", []string{"geheim"}},
		{"show my saved passwords", []string{}},
		{"turn on dark mode", nil},
	} {
		got := SecretsIn(tt.command)
		if len(got) == 0 && len(tt.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SecretsIn(%q) = %q, want %q", tt.command, got, tt.want)
		}
	}
}

func TestRedact(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		pii      bool
	}{
		{"text +1 (555) 123-4567 I'm late", "text [phone] I'm late", true},
		{"call 0612345678", "call [phone]", true},
		{"mail bob@example.com now", "mail [email] now", true},
		{"pay with 4111 1111 1111 1111", "pay with [card]", true},
		{"log in with password hunter2", "log in with password [secret]", true},
		{"set an alarm for 7:30", "set an alarm for 7:30", true},
		{"resize to 1000:473", "resize to 1000:473", true},
		{"in 2023", "in 2023", true},
		{"memo.m4a · 124 kB · 30.06.2023, 12:26 PM", "memo.m4a · 124 kB · 30.06.2023, 12:26 PM", true},
		{"due 2023-06-30 or 6/30/2023", "due 2023-06-30 or 6/30/2023", true},
		{"call 06.12.34.56.78", "call [phone]", true},
		{"call 30.06-2023", "call [phone]", true},   // two separators: no date
		{"call 45.67.8901", "call [phone]", true},   // no month, no day
		{"ring 555-123-4567", "ring [phone]", true}, // 3-3-4: no date

		{"call 0612345678 pw hunter2", "call 0612345678 pw [secret]", false},
	} {
		if got := Redact(tt.in, []string{"hunter2"}, tt.pii); got != tt.want {
			t.Errorf("Redact(%q, pii=%v) = %q, want %q", tt.in, tt.pii, got, tt.want)
		}
	}
}

func TestRedactJSON(t *testing.T) {
	raw := []byte(`{"seq":12345678901,"text":"type \"hunter2\" for 555-123-4567","list":["bob@example.com"]}`)
	got := string(RedactJSON(raw, []string{`"hunter2"`, "hunter2"}, true))
	for _, bad := range []string{"hunter2", "555", "bob@"} {
		if strings.Contains(got, bad) {
			t.Fatalf("RedactJSON left %q in %s", bad, got)
		}
	}
	if !strings.Contains(got, "12345678901") {
		t.Fatalf("numbers must keep their digits: %s", got)
	}
}

func FuzzRedact(f *testing.F) {
	f.Add("password hunter2 +1 555 1234567 a@b.co", "hunter2")
	f.Fuzz(func(t *testing.T, s, secret string) {
		out := Redact(s, []string{secret}, true)
		if len(secret) >= 2 && !strings.Contains(SecretMark, secret) && strings.Contains(out, secret) && !strings.Contains(s, SecretMark) {
			// a secret can only survive when the marks themselves contain it
			for _, m := range []string{PhoneMark, EmailMark, CardMark} {
				if strings.Contains(m, secret) {
					return
				}
			}
			t.Fatalf("secret %q survives in %q", secret, out)
		}
		RedactJSON([]byte(s), []string{secret}, true)
	})
}
