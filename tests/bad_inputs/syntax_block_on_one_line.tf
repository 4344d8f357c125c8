resource "a_b" "c" { x = 1 y = 2 }
