resource "aws_instance" "web" {
  ami = "ami-123"
  lifecycle {
    create_before_destroy = true

}

output "id" {
  value = aws_instance.web.id
}
