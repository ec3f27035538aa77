package bert

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ModelName is the model scripts/fetch-model.sh puts in the cache, and its
// directory name there.
const ModelName = "all-MiniLM-L6-v2"

// CacheKey names the vectors of ModelName computed here: the model key of
// cached embeddings (knowledge.Store.Embedding), distinct from an endpoint
// that serves a model of the same name.
const CacheKey = "local:" + ModelName

// FindDir returns the directory that holds the model's files (ConfigFile,
// VocabFile, WeightsFile), looking in order at $WAYFINDER_MODEL_DIR,
// $WAYFINDER_CACHE/models/ModelName, $HOME/.cache/wayfinder/models/ModelName
// (the Makefile's cache) and .tools/models/ModelName in the working
// directory or one of its parents (scripts/fetch-model.sh's cache when
// WAYFINDER_CACHE is unset). The error lists the places looked at; run
// scripts/fetch-model.sh to fill the cache.
func FindDir() (string, error) {
	var tried []string
	try := func(dir string) bool {
		if dir == "" {
			return false
		}
		tried = append(tried, dir)
		return hasModel(dir)
	}
	if d := os.Getenv("WAYFINDER_MODEL_DIR"); d != "" {
		if try(d) {
			return d, nil
		}
		return "", fmt.Errorf("bert: WAYFINDER_MODEL_DIR=%s lacks %s, %s or %s", d, ConfigFile, VocabFile, WeightsFile)
	}
	var dirs []string
	if c := os.Getenv("WAYFINDER_CACHE"); c != "" {
		dirs = append(dirs, filepath.Join(c, "models", ModelName))
	}
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".cache", "wayfinder", "models", ModelName))
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			dirs = append(dirs, filepath.Join(d, ".tools", "models", ModelName))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, d := range dirs {
		if try(d) {
			return d, nil
		}
	}
	return "", fmt.Errorf("bert: model %s not found (run scripts/fetch-model.sh); looked in %s", ModelName, strings.Join(tried, ", "))
}

func hasModel(dir string) bool {
	for _, f := range []string{ConfigFile, VocabFile, WeightsFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.IsDir() {
			return false
		}
	}
	return true
}

var shared struct {
	mu     sync.Mutex
	models map[string]*Model
}

// ErrNoModel is wrapped by LoadDefault when the model files are not found.
var ErrNoModel = errors.New("bert: model not found")

// LoadDefault loads ModelName from FindDir once per process and returns the
// same *Model to every caller (a Model is read-only and safe for concurrent
// use; loading takes about a second and ~90 MB). The error wraps ErrNoModel
// when the files are not found.
func LoadDefault() (*Model, error) {
	dir, err := FindDir()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoModel, err)
	}
	return LoadShared(dir)
}

// LoadShared is Load(dir, CacheKey), once per directory per process.
func LoadShared(dir string) (*Model, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if m := shared.models[dir]; m != nil {
		return m, nil
	}
	m, err := Load(dir, CacheKey)
	if err != nil {
		return nil, err
	}
	if shared.models == nil {
		shared.models = map[string]*Model{}
	}
	shared.models[dir] = m
	return m, nil
}
