package intent

import "testing"

// TestSwitchState: the state a command asks a switch for, reading its
// on and off words with the label's own.
func TestSwitchState(t *testing.T) {
	for _, tt := range []struct {
		cmd, label string
		want       int
	}{
		{"turn on hide caller id", "Hide caller id", 1},
		{"turn off hide caller id", "Hide caller id", -1},
		{"hide caller id", "Hide caller id", 1},
		{"show the caller id", "Hide caller id", -1},
		{"turn off dark mode", "Dark mode", -1},
		{"enable notifications", "Notifications", 1},
		{"disable showing the archive tab", "Show archive tab", -1},
		{"dark mode", "Dark mode", 0},
		{"don't show the caller id", "Hide caller id", 1},
		{"do not prevent the screen from locking", "Prevent screen from locking", -1},
		{"allow the screen to lock", "Prevent screen from locking", -1},
		{"never show the archive tab", "Show archive tab", -1},
		// an on or off word in its -ing form after an on, off or stop
		// word is what that word acts on
		{"disable showing the archive tab", "Archive tab", -1},
		{"turn off showing hidden items", "Hidden items", -1},
		{"stop showing the archive tab", "Archive tab", -1},
		{"keep showing the archive tab", "Archive tab", 1},
		// a switch's state text merged into its row's label is no word of
		// the setting
		{"turn off autoplay videos", "Autoplay videos OFF", -1},
		{"turn on autoplay videos", "Autoplay videos ON", 1},
		{"turn off the lights on", "Lights on", -1},
		// what unticks, mutes or stops doing something asks for off
		{"uncheck start lists at the top", "Start lists at the top", -1},
		{"mute the key clicks", "Key clicks", -1},
		{"close the key clicks", "Key clicks", -1},
		{"turn off confirm before i leave", "Confirm before you leave the editor", -1},
		{"turn on confirm before i leave", "Confirm before you leave the editor", 1},
		{"confirm before i leave the editor", "Confirm before you leave the editor", 0}, // its last word is no verb of the command
		{"please exit dark mode", "Dark mode", -1},
		{"don't close the app on launch", "Close app on launch", 0}, // the label's own verb: as before
		{"close the app on launch", "Close app on launch", 0},
		{"unmute the keys", "Mute keys", -1},
		{"mute the keys", "Mute keys", 1},
		{"stop syncing drafts automatically", "Autosync drafts", -1},
		{"stop the ringer from ramping up", "Raise the ringer gradually", -1},
		{"stop the music", "Fade tracks in", 0},
		{"stop starting lists at the top", "Start lists at the top", -1},
		{"stop hiding the caller id", "Hide caller id", -1},
		{"stop the morning alarm from ringing", "Wake-up tone", -1},
	} {
		if got := SwitchState(tt.cmd, tt.label); got != tt.want {
			t.Errorf("SwitchState(%q, %q) = %d, want %d", tt.cmd, tt.label, got, tt.want)
		}
	}
}
