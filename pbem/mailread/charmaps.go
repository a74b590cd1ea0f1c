package mailread

import (
	"strings"

	"golang.org/x/text/encoding/charmap"
)

// singleByte names the single-byte charsets the package reads itself, by
// the lower-cased names decodeCharset looks up. Most of these names are
// WHATWG labels too; the rest (cp850, ibm850, koi8r, koi8u, latin-1,
// latin-9) are spellings mail clients use that the WHATWG index lacks.
var singleByte = map[string]*charmap.Charmap{
	"windows-1250": charmap.Windows1250, "cp1250": charmap.Windows1250, "x-cp1250": charmap.Windows1250,
	"windows-1251": charmap.Windows1251, "cp1251": charmap.Windows1251, "x-cp1251": charmap.Windows1251,
	"windows-1252": charmap.Windows1252, "cp1252": charmap.Windows1252, "x-cp1252": charmap.Windows1252,
	// WHATWG (and every mail client) reads Latin-1 as windows-1252.
	"iso-8859-1": charmap.Windows1252, "iso8859-1": charmap.Windows1252, "iso_8859-1": charmap.Windows1252,
	"latin1": charmap.Windows1252, "latin-1": charmap.Windows1252, "l1": charmap.Windows1252,
	"iso-8859-2": charmap.ISO8859_2, "iso8859-2": charmap.ISO8859_2, "iso_8859-2": charmap.ISO8859_2, "latin2": charmap.ISO8859_2,
	"iso-8859-5": charmap.ISO8859_5, "iso8859-5": charmap.ISO8859_5, "iso_8859-5": charmap.ISO8859_5,
	"iso-8859-15": charmap.ISO8859_15, "iso8859-15": charmap.ISO8859_15, "iso_8859-15": charmap.ISO8859_15, "latin-9": charmap.ISO8859_15,
	"koi8-r": charmap.KOI8R, "koi8r": charmap.KOI8R,
	"koi8-u": charmap.KOI8U, "koi8u": charmap.KOI8U,
	"ibm866": charmap.CodePage866, "cp866": charmap.CodePage866,
	"ibm850": charmap.CodePage850, "cp850": charmap.CodePage850,
	"macintosh": charmap.Macintosh, "mac": charmap.Macintosh, "x-mac-roman": charmap.Macintosh,
}

// fromSingleByte decodes b byte by byte; a byte the charset leaves
// undefined becomes U+FFFD. The result is valid UTF-8.
func fromSingleByte(cm *charmap.Charmap, b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		if c < 0x80 {
			sb.WriteByte(c)
		} else {
			sb.WriteRune(cm.DecodeByte(c))
		}
	}
	return sb.String()
}
