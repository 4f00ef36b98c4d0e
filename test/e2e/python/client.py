"""The official Kubernetes Python client against the simulated cluster: watch, exec and logs.

Usage: client.py KUBECONFIG NAMESPACE. Prints one JSON object with what each call returned.
"""
import json
import sys

from kubernetes import client, config, watch
from kubernetes.stream import stream

kubeconfig, namespace = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
v1 = client.CoreV1Api()

v1.create_namespace({"metadata": {"name": namespace}})
pod = {
    "metadata": {"name": "py"},
    "spec": {
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "containers": [{"name": "c", "image": "registry.k8s.io/e2e-test-images/agnhost:2.52",
                        "command": ["sh", "-c", "echo hello from py; sleep 3600"]}],
    },
}
v1.create_namespaced_pod(namespace, pod)

# watch=True on the wire: the events must come as a stream, not a list.
seen = []
w = watch.Watch()
for event in w.stream(v1.list_namespaced_pod, namespace=namespace, timeout_seconds=60):
    p = event["object"]
    seen.append([event["type"], p.metadata.name, p.status.phase])
    if p.status.phase == "Running":
        w.stop()

out = stream(v1.connect_get_namespaced_pod_exec, "py", namespace, command=["hostname"],
             stderr=True, stdin=False, stdout=True, tty=False)
logs = v1.read_namespaced_pod_log("py", namespace)
print(json.dumps({"watch": seen, "exec": out, "logs": logs}))
