output "yes" {
  value = 1
}
