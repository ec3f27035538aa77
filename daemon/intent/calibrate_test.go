package intent

import (
	"math"
	"testing"
)

func TestCalibrate(t *testing.T) {
	tests := []struct {
		name      string
		ex        []Example
		threshold float64
		precision float64
		recall    float64
	}{
		{"empty", nil, DefaultThreshold, 0, 0},
		{"separable", []Example{{0.9, true}, {0.8, true}, {0.5, false}, {0.3, false}}, 0.65, 1, 1},
		{"precision before recall", []Example{{0.9, true}, {0.7, false}, {0.6, true}, {0.2, false}}, 0.8, 1, 0.5},
		{"only wrong", []Example{{0.4, false}}, 0.7, 1, 0},
		{"only right", []Example{{0.7, true}, {0.9, true}}, 0.35, 1, 1},
		{"tie cannot split", []Example{{0.8, true}, {0.8, false}, {0.3, true}}, 0.9, 1, 0},
		{"wrong at 1", []Example{{1, false}}, 1, 0, 0},
		{"out of range clamped", []Example{{1.5, true}, {-2, false}}, 0.5, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, p, r := Calibrate(tt.ex)
			if math.Abs(th-tt.threshold) > 1e-9 || math.Abs(p-tt.precision) > 1e-9 || math.Abs(r-tt.recall) > 1e-9 {
				t.Errorf("Calibrate = (%v, %v, %v), want (%v, %v, %v)", th, p, r, tt.threshold, tt.precision, tt.recall)
			}
		})
	}
}
