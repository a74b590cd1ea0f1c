// icepost secret: write a new token secret to a file, for the config's
// secret_file.

package main

import (
	"fmt"

	"icepost/pbem/config"
)

func cmdSecret(e *env, args []string) int {
	fs := newFlags(e, "secret")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "icepost secret: name the file to write, like icepost secret /etc/icepost/secret")
		return exitUsage
	}
	path := fs.Arg(0)
	if err := config.WriteSecretFile(path); err != nil {
		fmt.Fprintf(e.stderr, "icepost secret: %v (an existing secret is never replaced: the reply tokens in mails already sent depend on it)\n", err)
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "A new secret is in %s, readable by its owner only. Name it in the config:\n  secret_file = %q\nand let the user that runs icepost serve own it (chown).\n", path, path)
	return exitOK
}
