locals {
  x = "abc