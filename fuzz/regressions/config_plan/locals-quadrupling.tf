locals {
  a = "xxxxxxxxxxxxxxxx"
  b = "${local.a}${local.a}${local.a}${local.a}"
  c = "${local.b}${local.b}${local.b}${local.b}"
  d = "${local.c}${local.c}${local.c}${local.c}"
  e = "${local.d}${local.d}${local.d}${local.d}"
  f = "${local.e}${local.e}${local.e}${local.e}"
  g = "${local.f}${local.f}${local.f}${local.f}"
  h = "${local.g}${local.g}${local.g}${local.g}"
  i = "${local.h}${local.h}${local.h}${local.h}"
  j = "${local.i}${local.i}${local.i}${local.i}"
  k = "${local.j}${local.j}${local.j}${local.j}"
  l = "${local.k}${local.k}${local.k}${local.k}"
  m = "${local.l}${local.l}${local.l}${local.l}"
}
resource "a_b" "c" {
  count = length(local.m)
}
