"""Pure generators: (content, seeded Random) → things. No files, no clock, no global random."""
