output "o" {
  value = module.missing.out
}
