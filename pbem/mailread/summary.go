package mailread

import (
	"encoding/json"
	"io"
)

// Result is the outcome of reading one mail in the shape that
// `icepost mail parse -json` prints: one JSON object whose first four keys
// are always commands, comment, auto and error.
type Result struct {
	Commands   []string `json:"commands"` // canonical, never null
	Comment    string   `json:"comment"`
	Auto       bool     `json:"auto"`
	Error      string   `json:"error"` // why the mail could not be read; "" if it could
	AutoReason string   `json:"auto_reason,omitempty"`
	From       string   `json:"from,omitempty"`
	Subject    string   `json:"subject,omitempty"`
	MessageID  string   `json:"message_id,omitempty"`
	InReplyTo  string   `json:"in_reply_to,omitempty"`
	PlusParts  []string `json:"plus_parts,omitempty"`
}

// Summary reads one mail and never fails: an unreadable mail gives a
// Result with Error set.
func Summary(r io.Reader, lang Language) Result {
	m, err := Read(r, lang)
	if err != nil {
		return Result{Commands: []string{}, Error: err.Error()}
	}
	return m.Result()
}

// Result returns the summary of m.
func (m *Message) Result() Result {
	cmds := []string{}
	for _, c := range m.Commands {
		cmds = append(cmds, c.String())
	}
	return Result{
		Commands:   cmds,
		Comment:    m.Comment,
		Auto:       m.Auto,
		AutoReason: m.AutoReason,
		From:       m.From,
		Subject:    m.Subject,
		MessageID:  m.MessageID,
		InReplyTo:  m.InReplyTo,
		PlusParts:  m.PlusParts,
	}
}

// JSON encodes the result as one JSON object (no trailing newline).
func (r Result) JSON() ([]byte, error) {
	return json.Marshal(r)
}
