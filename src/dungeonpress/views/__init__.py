"""Views: model and generated things → plain values ready to print, one module for each thing shown."""
