package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const showRecord = "[Game \"IceSickle\"]\n[Player1 \"Ada\"]\n[Player2 \"Bob\"]\n\n1. L@c3 M@b2 *\n"

// show writes pictures of a record's positions and of position codes, to
// standard output or to a file.
func TestShowPictures(t *testing.T) {
	f := writeFile(t, "g.txt", showRecord)
	code, out, errs := icepost(t, "", "show", "-format", "svg", "-ply", "1", f)
	if code != exitOK || !strings.HasPrefix(out, "<svg ") || !strings.Contains(out, "Last move: Ada L@c3") || !strings.Contains(out, "Bob to move") {
		t.Errorf("show -format svg: %d %s\n%.400s", code, errs, out)
	}
	pic := filepath.Join(t.TempDir(), "board.png")
	if code, _, errs := icepost(t, "", "show", "-format", "png", "-view", "2", "-o", pic, f); code != exitOK {
		t.Fatalf("show -format png -o: %d %s", code, errs)
	}
	data, err := os.ReadFile(pic)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Dx() < 300 {
		t.Fatalf("the PNG written: %v", err)
	}
	// A position code, broken over lines after a "/" as a mail shows it.
	pik := "Pikemen 2 12 L2UL2UL2UM2US2U3/L2UM2UM2US2U4/\n  L2UM2US2U5/M2US2U5S1U/S2U5S1UM1U/5S1UM1UL1U/4S1UM1UM1UL1U/3S1UM1UL1UL1UL1U 0:0 1"
	if code, out, errs := icepost(t, "", "show", "-code", pik); code != exitOK || !strings.Contains(out, "1L U") {
		t.Errorf("show -code: %d %s\n%s", code, errs, out)
	}
	if code, out, errs := icepost(t, "", "show", "-format", "svg", "-view", "2", "-code", pik); code != exitOK || !strings.Contains(out, "N points down the page") {
		t.Errorf("show -format svg -code: %d %s", code, errs)
	}
}

// Bad input gets an error that names what to change, a non-zero exit,
// and no file half written.
func TestShowBadInput(t *testing.T) {
	f := writeFile(t, "g.txt", showRecord)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"ply past the end", []string{"-ply", "9", f}, "the record has 2 plies; -ply goes from 0 to 2"},
		{"a seat the game does not have", []string{"-view", "3", f}, "-view 3: IceSickle is played by 2 seats here; -view goes from 1 to 2"},
		{"a negative seat", []string{"-view", "-1", f}, "-view goes from 1 to 2"},
		{"unknown format", []string{"-format", "gif", f}, "-format gif: the formats are text, svg and png"},
		{"unwritable output", []string{"-format", "png", "-o", filepath.Join(dir, "missing", "b.png"), f}, "name a file in a folder that exists"},
		{"output is a folder", []string{"-format", "svg", "-o", dir, f}, "-o:"},
		{"no file", []string{"-format", "svg"}, "name one record file"},
		{"both a file and a code", []string{"-code", "IceLady 8/8/8/8/8/8/8/8 4 4 1", f}, "not both"},
		{"ply of a code", []string{"-ply", "1", "-code", "IceLady 8/2mmmm2/2ssss2/8/8/2SSSS2/2MMMM2/8 4 4 1"}, "a position code has none"},
		{"a code of no game", []string{"-code", "Chess rnbqkbnr/8 w"}, `"Chess" names no game`},
		{"a bad code", []string{"-code", "IceLady 9/9"}, "-code: bad position code"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := icepost(t, "", append([]string{"show"}, c.args...)...)
			if code != exitUsage || !strings.Contains(errs, c.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errs, exitUsage, c.want)
			}
		})
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}
