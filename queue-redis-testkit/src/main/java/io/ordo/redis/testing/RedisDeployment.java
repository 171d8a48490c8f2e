package io.ordo.redis.testing;

import io.ordo.redis.RedisOptions;

import java.util.List;

/** A Redis set-up beyond one plain server that the contract kit runs on as Ordo's least-privilege user. */
public interface RedisDeployment extends AutoCloseable {
    /** Creates the user with exactly the rules of {@code RedisAcl} and returns how to connect as it. */
    RedisOptions leastPrivilegeUser();

    /** Commands the ACL refused since the deployment started ({@code ACL LOG}), on every node. */
    List<Object> aclDenials();

    @Override
    void close();
}
