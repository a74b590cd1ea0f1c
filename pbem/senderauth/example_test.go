package senderauth_test

import (
	"fmt"

	"icepost/pbem/senderauth"
)

// The operator's server is mx.example.org. A mail from ada@example.org
// carries its Authentication-Results on top, and below it one that the
// sender wrote, which does not count.
func ExampleVerify() {
	headers := []string{
		"mx.example.org 1; spf=pass smtp.mailfrom=ada@example.org; dkim=pass (2048-bit key) header.d=example.org; dmarc=pass (p=reject) header.from=example.org",
		"mx.example.org; dmarc=pass header.from=evil.example",
	}
	fmt.Println(senderauth.Verify(headers, "mx.example.org", "ada@example.org"))
	fmt.Println(senderauth.Verify(headers, "mx.example.org", "bob@evil.example"))
	fmt.Println(senderauth.Verify(headers, "", "ada@example.org"))

	// A pass in a comment is a comment.
	forged := []string{"mx.example.org; dmarc=fail (p=reject; dmarc=pass header.from=example.org) header.from=example.org"}
	fmt.Println(senderauth.Verify(forged, "mx.example.org", "ada@example.org"))
	// Output:
	// true dmarc=pass for example.org
	// false dmarc=pass for example.org, not evil.example
	// false no authserv-id configured: nobody is verified
	// false dmarc=fail for example.org
}
