resource "a_b" "c" {
  x = count.foo
}
