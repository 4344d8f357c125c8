locals {
  m = {
    a = 1
