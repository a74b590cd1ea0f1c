package pbem

import (
	"context"

	"icepost/pbem/outbox"
)

// prune runs PruneSent with the daemon's KeepSent; the daemon's tick
// calls it.
func (d *Daemon) prune(ctx context.Context) {
	keep := d.KeepSent
	if keep <= 0 {
		keep = outbox.DefaultKeepSent
	}
	n, err := d.sender().PruneSent(ctx, d.Server.now().Add(-keep))
	if err != nil && ctx.Err() == nil {
		d.Server.log().Warn("pruning the outbox", "err", err)
	}
	if n > 0 {
		d.Server.log().Info("outbox pruned: bodies of mails sent before keep_sent emptied", "mails", n, "keep_sent", keep)
	}
}
