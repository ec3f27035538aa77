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

// CacheKey names the vectors of ModelName computed here from the float32
// weights: the model key of cached embeddings (knowledge.Store.Embedding),
// distinct from an endpoint that serves a model of the same name.
// CacheKeyInt8 names those of the int8 weights, so the vectors of the two
// precisions are never mixed in a cache.
const (
	CacheKey     = "local:" + ModelName
	CacheKeyInt8 = CacheKey + "-int8"
)

// Precision is the number format of a model's weights: which weights file
// Load reads.
type Precision string

const (
	FP32 Precision = "fp32" // WeightsFile, the model's own float32 file
	Int8 Precision = "int8" // Int8WeightsFile, Quantize's
)

// DefaultPrecision is the precision FindPrecision prefers when the
// directory holds both weights files: the int8 vectors match as the
// float32 ones do on the tuning sets (README, "The on-device embedding
// model"), from a file a quarter the size, faster.
const DefaultPrecision = Int8

// PrecisionEnv, when set ("fp32" or "int8"), makes FindPrecision take that
// precision or fail.
const PrecisionEnv = "WAYFINDER_MODEL_PRECISION"

// WeightsFile is the file of p's weights ("" for an unknown precision).
func (p Precision) WeightsFile() string {
	switch p {
	case FP32:
		return WeightsFile
	case Int8:
		return Int8WeightsFile
	}
	return ""
}

// CacheKey is the model key of the vectors computed with p's weights.
func (p Precision) CacheKey() string {
	if p == Int8 {
		return CacheKeyInt8
	}
	return CacheKey
}

// FindPrecision returns the precision to load from dir: $PrecisionEnv if
// set (an error when it names no precision or its file is absent), else
// DefaultPrecision if its weights file is in dir, else the other one if
// its file is. The error says which files are missing.
func FindPrecision(dir string) (Precision, error) {
	if e := os.Getenv(PrecisionEnv); e != "" {
		p := Precision(e)
		if p.WeightsFile() == "" {
			return "", fmt.Errorf("bert: %s=%s: want %s or %s", PrecisionEnv, e, FP32, Int8)
		}
		if !isFile(filepath.Join(dir, p.WeightsFile())) {
			return "", fmt.Errorf("bert: %s=%s but %s lacks %s", PrecisionEnv, e, dir, p.WeightsFile())
		}
		return p, nil
	}
	for _, p := range []Precision{DefaultPrecision, FP32, Int8} {
		if isFile(filepath.Join(dir, p.WeightsFile())) {
			return p, nil
		}
	}
	return "", fmt.Errorf("bert: %s has neither %s nor %s", dir, Int8WeightsFile, WeightsFile)
}

// FindDir returns the directory that holds the model's files (ConfigFile,
// VocabFile, and WeightsFile or Int8WeightsFile), looking in order at $WAYFINDER_MODEL_DIR,
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
		return "", fmt.Errorf("bert: WAYFINDER_MODEL_DIR=%s lacks %s, %s or both of %s and %s", d, ConfigFile, VocabFile, WeightsFile, Int8WeightsFile)
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
	for _, f := range []string{ConfigFile, VocabFile} {
		if !isFile(filepath.Join(dir, f)) {
			return false
		}
	}
	return isFile(filepath.Join(dir, WeightsFile)) || isFile(filepath.Join(dir, Int8WeightsFile))
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

var shared struct {
	mu     sync.Mutex
	models map[string]*Model
}

// ErrNoModel is wrapped by LoadDefault when the model files are not found.
var ErrNoModel = errors.New("bert: model not found")

// LoadDefault loads ModelName from FindDir once per process and returns the
// same *Model to every caller (a Model is read-only and safe for concurrent
// use; loading takes 0.1–0.2 s, and 23 MB of memory in int8, 90 MB in
// float32). The error wraps ErrNoModel when the files are not found.
func LoadDefault() (*Model, error) {
	dir, err := FindDir()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoModel, err)
	}
	return LoadShared(dir)
}

// LoadShared is Load(dir, p, p.CacheKey()) for p = FindPrecision(dir),
// once per directory and precision per process.
func LoadShared(dir string) (*Model, error) {
	p, err := FindPrecision(dir)
	if err != nil {
		return nil, err
	}
	return loadShared(dir, p)
}

func loadShared(dir string, p Precision) (*Model, error) {
	key := string(p) + ":" + dir
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if m := shared.models[key]; m != nil {
		return m, nil
	}
	m, err := Load(dir, p, p.CacheKey())
	if err != nil {
		return nil, err
	}
	if shared.models == nil {
		shared.models = map[string]*Model{}
	}
	shared.models[key] = m
	return m, nil
}
