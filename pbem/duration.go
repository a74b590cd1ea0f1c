package pbem

import (
	"fmt"
	"time"
)

// Duration reads "90s", "5m", "72h" from TOML.
type Duration struct{ time.Duration }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration like 90s, 5m or 72h", b)
	}
	d.Duration = v
	return nil
}
