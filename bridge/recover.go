package bridge

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func recoverStore(dataDir string) (string, error) {
	rec, err := knowledge.Recover(context.Background(), filepath.Join(dataDir, "knowledge.db"))
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(rec)
	return string(b), err
}
