// Tests for GestureEngine live in this folder.
