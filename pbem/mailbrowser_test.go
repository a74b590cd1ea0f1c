package pbem_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Every kind of mail's HTML part in headless Chromium, as a phone (390
// px) and a desktop (1280 px) show it: nothing wider than the window.
// Without Chromium the test skips, and fails when CI is "true" (as web's
// browser tests do). ICEPOST_MAIL_SHOTS=DIR writes a screenshot of each
// into DIR, to look at.

// mailBrowser starts headless Chromium for the test.
func mailBrowser(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		const msg = "!!! Chromium is not installed: SKIPPING the mail browser test (apt-get install chromium) !!!"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // root in containers and CI has no sandbox
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("allow-file-access-from-files", true),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// mailOverflowJS is how wide the mail is against the window, and which
// elements stick out of it.
const mailOverflowJS = `(() => {
	const w = window.innerWidth, out = [];
	for (const e of document.querySelectorAll("body *")) {
		const r = e.getBoundingClientRect();
		if (r.right > w + 0.5) out.push(e.tagName.toLowerCase() + " right=" + Math.round(r.right));
	}
	return {width: w, scrollWidth: document.documentElement.scrollWidth, over: out.slice(0, 5)};
})()`

type mailOverflow struct {
	Width       int      `json:"width"`
	ScrollWidth int      `json:"scrollWidth"`
	Over        []string `json:"over"`
}

func TestMailsInABrowser(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	bctx := mailBrowser(t)
	kinds := everyKindOfMail(t)
	dir := t.TempDir()
	shots := os.Getenv("ICEPOST_MAIL_SHOTS")
	// One tab for all, opened here without a time limit: chromedp binds
	// a tab to the context of the first call on it.
	tab, cancel := chromedp.NewContext(bctx)
	defer cancel()
	if err := chromedp.Do(tab); err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		page := writeMailFiles(t, dir, k.name, k.m.raw)
		for _, w := range []int64{390, 1280} {
			t.Run(fmt.Sprintf("%s-%d", k.name, w), func(t *testing.T) {
				ctx, stop := context.WithTimeout(tab, 20*time.Second)
				defer stop()
				view := chromedp.EmulateViewport(w, 900)
				if w < 768 {
					view = chromedp.EmulateViewport(w, 800, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
				}
				if err := chromedp.Do(ctx, view, chromedp.Navigate("file://"+page)); err != nil {
					t.Fatal(err)
				}
				o, err := chromedp.Run(ctx, chromedp.Evaluate[mailOverflow](mailOverflowJS))
				if err != nil {
					t.Fatal(err)
				}
				if o.ScrollWidth > int(w) || o.Width != int(w) {
					t.Errorf("the mail is %d px wide in a window of %d (want %d): %q", o.ScrollWidth, o.Width, w, o.Over)
				}
				if shots != "" {
					png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%s-%d.png", k.name, w)), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}
