// Tests for GesturedCLI live in this folder.
