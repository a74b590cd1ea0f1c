package mailgames

import "testing"

func TestMerged(t *testing.T) {
	tests := []struct {
		name     string
		ivs      [][3]int64
		from, to int64
		want     int64
	}{
		{"none", nil, 0, 100, 0},
		{"inside", [][3]int64{{10, 20, 0}}, 0, 100, 10},
		{"clipped at both ends", [][3]int64{{-5, 10, 1}, {90, 200, 0}}, 0, 100, 20},
		{"overlapping count once", [][3]int64{{10, 30, 0}, {20, 40, 1}}, 0, 100, 30},
		{"nested", [][3]int64{{10, 50, 1}, {20, 30, 0}}, 0, 100, 40},
		{"out of order", [][3]int64{{60, 70, 0}, {10, 20, 1}}, 0, 100, 20},
		{"outside", [][3]int64{{100, 120, 0}, {-20, 0, 1}}, 0, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := merged(tt.ivs, tt.from, tt.to); got != tt.want {
				t.Errorf("merged(%v, %d, %d) = %d, want %d", tt.ivs, tt.from, tt.to, got, tt.want)
			}
		})
	}
}
