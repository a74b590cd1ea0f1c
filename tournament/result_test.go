package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestParseResult(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"1-0", []int{1, 2}},
		{"0-1", []int{2, 1}},
		{"1/2-1/2", []int{1, 1}},
		{"0-1-0", []int{2, 1, 2}},
		{"1/2-1/2-1/2-1/2", []int{1, 1, 1, 1}},
		{"14:16", []int{2, 1}},
		{"14:16:3", []int{2, 1, 3}},
		{"5:5:9:0", []int{2, 2, 1, 4}},
	} {
		r, err := ParseResult(c.in)
		if err != nil || !slices.Equal(r.Places, c.want) {
			t.Errorf("%q: %v %v, want %v", c.in, r.Places, err, c.want)
		}
	}
	for _, bad := range []string{"*", "", "1", "1-0-0-0-0", "a-b", "1-", "NaN-1"} {
		if _, err := ParseResult(bad); !errors.Is(err, ErrResult) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestResultString(t *testing.T) {
	for _, c := range []struct {
		r    Result
		want string
	}{
		{ResultOf(1, 0), "1-0"},
		{ResultOf(0, 1), "0-1"},
		{ResultOf(1, 1), "1/2-1/2"},
		{ResultOf(3, 9, 1), "2-1-3"},
		{Result{Places: []int{2, 1}, Forfeit: true}, "0-1 forfeit"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%v: %q, want %q", c.r.Places, got, c.want)
		}
	}
}

// TestPointsByPlacing: a game of k seats gives 1 to the first, 0 to the
// last, linearly between; tied seats share.
func TestPointsByPlacing(t *testing.T) {
	for _, c := range []struct {
		places []int
		want   []Points
	}{
		{[]int{1, 2}, []Points{Unit, 0}},
		{[]int{1, 1}, []Points{Unit / 2, Unit / 2}},
		{[]int{2, 1, 3}, []Points{Unit / 2, Unit, 0}},
		{[]int{2, 1, 2}, []Points{Unit / 4, Unit, Unit / 4}},
		{[]int{1, 1, 3}, []Points{3 * Unit / 4, 3 * Unit / 4, 0}},
		{[]int{1, 1, 1}, []Points{Unit / 2, Unit / 2, Unit / 2}},
		{[]int{1, 2, 3, 4}, []Points{Unit, 2 * Unit / 3, Unit / 3, 0}},
		{[]int{1, 2, 2, 4}, []Points{Unit, Unit / 2, Unit / 2, 0}},
		{[]int{1, 1, 3, 4}, []Points{5 * Unit / 6, 5 * Unit / 6, Unit / 3, 0}},
		{[]int{1, 2, 2, 2}, []Points{Unit, Unit / 3, Unit / 3, Unit / 3}},
		{[]int{2, 1, 2, 2}, []Points{Unit / 3, Unit, Unit / 3, Unit / 3}},
		{[]int{1, 1, 1, 1}, []Points{Unit / 2, Unit / 2, Unit / 2, Unit / 2}},
	} {
		if got := pointsOf(Result{Places: c.places}); !slices.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.places, got, c.want)
		}
	}
}

func TestPointsText(t *testing.T) {
	for p, want := range map[Points]string{
		0: "0", 24: "1", 36: "1½", 12: "½", 16: "⅔", 20: "⅚", 42: "1¾",
		9: "⅜", 34: "1.42", -12: "-½", -48: "-2",
	} {
		if got := p.String(); got != want {
			t.Errorf("%d: %q, want %q", int64(p), got, want)
		}
	}
	for p := Points(-100); p <= 200; p++ {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back Points
		if err := json.Unmarshal(b, &back); err != nil || back != p {
			t.Fatalf("%d → %s → %d, %v", int64(p), b, int64(back), err)
		}
	}
	if b, _ := json.Marshal(Points(36)); string(b) != "1.5" {
		t.Errorf("1½ in JSON: %s", b)
	}
	if b, _ := json.Marshal(Points(16)); string(b) != "0.6667" {
		t.Errorf("⅔ in JSON: %s", b)
	}
	var p Points
	if err := json.Unmarshal([]byte(`"x"`), &p); err == nil {
		t.Error("a string read as points")
	}
	_ = fmt.Sprint(p)
}
