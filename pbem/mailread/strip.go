package mailread

import (
	"strings"
	"unicode"
)

// ownLines returns the author's own text of a normalised body: quoted lines
// (">"), attribution lines ("On ... wrote:", also wrapped over up to three
// lines, and their German, French, Spanish, Dutch ... forms) and everything
// from a signature or the start of an unquoted original (Outlook's
// "-----Original Message-----" or From:/Sent: block, a "____" separator,
// "Begin forwarded message:") on are removed. Text on both sides of a quote
// is kept, so a move written above the quote (top-posting) or below it
// (bottom-posting) is found either way. Where a quote was removed a blank
// line stands, so paragraphs stay apart.
func ownLines(text string) []string {
	lines := strings.Split(text, "\n")
	if len(lines) > maxLines {
		lines = lines[:maxLines]
	}
	var out []string
	gap := false // a quote or attribution was removed since the last kept line
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if isQuoteLine(l) {
			gap = true
			continue
		}
		if cutsRest(lines, i) {
			break
		}
		if n, cut := attribution(lines, i); n > 0 {
			if cut {
				break
			}
			i += n - 1
			gap = true
			continue
		}
		if gap && len(out) > 0 && l != "" {
			out = append(out, "")
		}
		gap = false
		out = append(out, strings.TrimRightFunc(lines[i], unicode.IsSpace))
	}
	// Drop trailing blank lines and separator lines left above a cut.
	for len(out) > 0 && isSeparator(strings.TrimSpace(out[len(out)-1])) {
		out = out[:len(out)-1]
	}
	return out
}

func isQuoteLine(l string) bool { return strings.HasPrefix(l, ">") }

// isSeparator reports a blank line or one made only of - _ = * characters.
func isSeparator(l string) bool {
	for _, r := range l {
		if r != '-' && r != '_' && r != '=' && r != '*' && r != ' ' {
			return false
		}
	}
	return true
}

// cutsRest reports whether line i starts a signature or an unquoted
// original, so that it and everything after it are not the author's.
func cutsRest(lines []string, i int) bool {
	raw := strings.TrimRightFunc(lines[i], unicode.IsSpace)
	l := strings.TrimSpace(raw)
	if l == "" {
		return false
	}
	// Signature separators: "-- " (RFC 3676), and "--" as clients mangle it.
	if l == "--" || l == "—" {
		return true
	}
	// "-Name" signatures: a dash glued to one to three words.
	if len(l) > 1 && l[0] == '-' && isAlpha(l[1]) && len(strings.Fields(l)) <= 3 && !strings.ContainsAny(l, ".,:;!?@") {
		return true
	}
	if strings.Count(l, "_") >= 10 && isSeparator(l) {
		return true
	}
	low := strings.ToLower(l)
	if isMobileSignature(low) {
		return true
	}
	// "-----Original Message-----" and the like.
	if strings.HasPrefix(low, "--") || strings.HasPrefix(low, "==") || strings.HasPrefix(low, "__") {
		core := strings.TrimSpace(strings.Trim(low, "-=_ "))
		switch core {
		case "original message", "ursprüngliche nachricht", "message d'origine", "mensaje original",
			"oorspronkelijk bericht", "messaggio originale", "mensagem original", "original meddelande",
			"originalmeldung", "оригинальное сообщение", "исходное сообщение",
			"forwarded message", "weitergeleitete nachricht", "message transféré", "mensaje reenviado":
			return true
		}
	}
	for _, p := range []string{"begin forwarded message", "anfang der weitergeleiteten nachricht",
		"début du message réexpédié", "inicio del mensaje reenviado"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	// Outlook's header block: "From: ..." followed by Sent:/Date:/To:/Subject:.
	if k := headerKey(low); k == "from" {
		n := 0
		for j := i + 1; j < len(lines) && j <= i+6; j++ {
			switch headerKey(strings.ToLower(strings.TrimSpace(lines[j]))) {
			case "sent", "date", "to", "subject", "cc":
				n++
			}
		}
		return n >= 2
	}
	return false
}

// headerKey returns the normalised key of a line that looks like a quoted
// mail header ("From:", "*Sent:*", "Von:", "Envoyé :"), or "".
func headerKey(low string) string {
	low = strings.TrimLeft(low, "*_ ")
	colon := strings.IndexByte(low, ':')
	if colon <= 0 || colon > 20 {
		return ""
	}
	key := strings.TrimSpace(strings.Trim(low[:colon], "*_ "))
	switch key {
	case "from", "von", "de", "van", "da", "från", "fra", "от", "od", "kimden":
		return "from"
	case "sent", "gesendet", "envoyé", "enviado", "verzonden", "inviato", "skickat", "sendt", "отправлено", "date", "datum", "fecha", "data", "дата":
		return "sent"
	case "to", "an", "à", "a", "para", "aan", "till", "til", "кому", "per":
		return "to"
	case "subject", "betreff", "objet", "asunto", "onderwerp", "oggetto", "assunto", "ämne", "emne", "тема":
		return "subject"
	case "cc":
		return "cc"
	}
	return ""
}

// isMobileSignature recognises the lines phones and webmail append ("Sent
// from my iPhone", "Get Outlook for Android", "Von meinem iPhone gesendet"),
// not ordinary prose that happens to begin the same way.
func isMobileSignature(low string) bool {
	if strings.ContainsAny(low, ",;") || len(strings.Fields(low)) > 8 {
		return false
	}
	for _, p := range []string{
		"sent from my ", "sent from mail for ", "sent from yahoo", "sent from outlook", "sent from samsung",
		"sent from aol", "sent from the all new aol", "sent from proton", "sent from gmail", "sent via ",
		"sent with ", "get outlook for ", "von meinem ", "gesendet von ", "envoyé de mon ", "envoyé depuis ",
		"enviado desde mi ", "enviado do meu ", "verstuurd vanaf mijn ", "verzonden vanaf mijn ",
		"inviato da ", "skickat från min ", "sendt fra min ", "lähetetty ", "отправлено с ",
	} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}

// attribution reports whether lines i.. (up to three consecutive non-blank
// lines) are an attribution ending in ':' ("On Tue, ... Bob <b@x> wrote:",
// "Am 01.03.2024 um 10:00 schrieb Bob:", "26.06.2014, 14:41, \"Bob\" <b@x>:").
// n is the number of lines; cut is set when no ">" quote follows, which
// means the original follows unquoted and the rest is not the author's.
func attribution(lines []string, i int) (n int, cut bool) {
	first := strings.TrimSpace(lines[i])
	if first == "" {
		return 0, false
	}
	starts := attributionStart(strings.ToLower(first))
	var joined strings.Builder
	for k := 0; k < 3 && i+k < len(lines); k++ {
		l := strings.TrimSpace(lines[i+k])
		if l == "" || isQuoteLine(l) {
			break
		}
		if k > 0 {
			joined.WriteByte(' ')
		}
		joined.WriteString(l)
		if !strings.HasSuffix(l, ":") {
			continue
		}
		low := strings.ToLower(joined.String())
		verb := endsWithVerb(low)
		if !starts && !(verb && k == 0) {
			return 0, false
		}
		// What follows: a quote (or nothing) makes it an attribution.
		j := i + k + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		quoted := j == len(lines) || isQuoteLine(strings.TrimSpace(lines[j]))
		switch {
		case quoted && (verb || strings.ContainsAny(low, "@0123456789")):
			return k + 1, false
		case verb && starts:
			return k + 1, true
		}
		return 0, false
	}
	return 0, false
}

// attributionStart reports whether a lower-cased line begins the way
// attribution lines do: "On ", "Am ", "Le ", a date, a weekday.
func attributionStart(low string) bool {
	low = strings.TrimLeft(low, "-*_ ")
	if low == "" {
		return false
	}
	if isDigit(low[0]) {
		return true
	}
	for _, p := range []string{"on ", "am ", "le ", "el ", "op ", "il ", "em ", "den ", "dne ", "w dniu ",
		"в ", "mon,", "tue,", "wed,", "thu,", "fri,", "sat,", "sun,", "mon ", "tue ", "wed ", "thu ", "fri ",
		"sat ", "sun ", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}

// endsWithVerb reports whether a lower-cased attribution ends in "wrote:"
// or its equivalent in another language.
func endsWithVerb(low string) bool {
	low = strings.TrimSpace(strings.TrimSuffix(low, ":"))
	for _, v := range []string{"wrote", "writes", "schrieb", "a écrit", "escribió", "escribio", "schreef",
		"написал", "написала", "написал(а)", "napisał", "napisał(a)", "skrev", "kirjoitti", "ha scritto",
		"escreveu", "scrisse", "yazdı", "írta", "napsal", "geschreven", "kirjutas"} {
		if strings.HasSuffix(low, v) {
			return true
		}
	}
	return false
}
