// Tests for GestureInput live in this folder.
