package web

import (
	"strconv"
	"strings"
	"testing"

	"icepost/archive"
)

// TestSearchCountCap: the search counts up to countCap games past its
// page and says "more than" beyond that, paging on without a last page;
// a page that is not full says how many there are.
func TestSearchCountCap(t *testing.T) {
	ts, _, a := newTestSite(t, 40, nil)
	total, err := a.Count(t.Context(), archive.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if total <= 30 {
		t.Fatalf("%d games: the test needs more than 30", total)
	}
	n := strconv.Itoa(total)
	defer func(n int) { countCap = n }(countCap)
	countCap = 5
	for _, c := range []struct {
		path       string
		want, lack []string
	}{
		{"/search?per=2", []string{"more than 5 games; 1 to 2 shown", "<span>page 1</span>", `rel="next"`, "Download up to 5000"}, []string{"page 1 of", `rel="prev"`}},
		{"/search?per=4&page=3", []string{"more than 12 games; 9 to 12 shown", "<span>page 3</span>", `rel="prev"`, `rel="next"`}, nil},
		{"/search?per=100", []string{n + " games.", "Download them"}, []string{"more than", `rel="next"`}},
		{"/search?per=30&page=2", []string{n + " games; 31 to " + n + " shown"}, []string{"more than", `rel="next"`}},
		{"/search?per=2&page=100", []string{n + " games."}, []string{"more than"}},
		{"/search?text=famous", []string{"1 game."}, []string{"more than"}},
	} {
		t.Run(c.path, func(t *testing.T) {
			code, body, _ := get(t, ts.URL, c.path)
			if code != 200 {
				t.Fatalf("status %d\n%s", code, body)
			}
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			for _, w := range c.lack {
				if strings.Contains(body, w) {
					t.Errorf("the page has %q", w)
				}
			}
		})
	}
}
