package waitfor

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestWithin(t *testing.T) {
	var n atomic.Int32
	go func() {
		for range 3 {
			time.Sleep(Step)
			n.Add(1)
		}
	}()
	if !Within(10*time.Second, func() bool { return n.Load() == 3 }) {
		t.Fatal("Within gave up on a condition that became true")
	}

	asked := 0
	start := time.Now()
	if Within(50*time.Millisecond, func() bool { asked++; return false }) {
		t.Fatal("Within reported a condition that never held")
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("Within gave up after %v, before its timeout", d)
	}
	if asked < 2 {
		t.Errorf("Within asked %d times in 50ms", asked)
	}

	asked = 0
	if !Within(0, func() bool { asked++; return true }) || asked != 1 {
		t.Errorf("Within with no time to wait: asked %d times, want once and true", asked)
	}
}

// recorder is a testing.TB that keeps what Fatalf says instead of
// ending the test.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) { r.msg = fmt.Sprintf(format, args...) }

func TestUntil(t *testing.T) {
	r := &recorder{TB: t}
	Until(r, "nothing at all", time.Millisecond, func() bool { return true })
	if r.msg != "" {
		t.Errorf("Until failed on a condition that held: %s", r.msg)
	}
	Until(r, "the moon to turn blue", 20*time.Millisecond, func() bool { return false })
	if !strings.Contains(r.msg, "the moon to turn blue") {
		t.Errorf("Until's failure does not name what it waited for: %q", r.msg)
	}
}
